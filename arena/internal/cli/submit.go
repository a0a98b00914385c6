package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"connectrpc.com/connect"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/hosting"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

const submitUsage = `tapp submit --bot NAME --lang go|python [--entry FILE] [--token T] [--db DSN | --web URL] DIR|ARCHIVE`

// submit stores a new version of a hosted bot: the folder (or archive) is packed, checked
// and stored with the bot's token; against a local database it is built at once, in the
// sandbox, and the build's status and log are printed.
func (m *Main) submit(ctx context.Context, args []string) error {
	fs := m.flags("submit", "--bot NAME --lang go|python DIR|ARCHIVE [flags]")
	bot := fs.String("bot", "", "the registered bot this is a version of (tapp bots add NAME)")
	lang := fs.String("lang", "", "the bot's language: go or python")
	entry := fs.String("entry", "", "python: the file to run (default bot.py); go: the package to build (default .)")
	token := fs.String("token", m.env("TAPP_TOKEN", ""), "the bot's token (env TAPP_TOKEN): only its holder submits versions")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	web := fs.String("web", "", "submit to a running dashboard instead (https://HOST:PORT), which builds it on its ladder")
	noBuild := fs.Bool("no-build", false, "store the version without building it now (the ladder builds it)")
	var hf hostingFlags
	hf.register(fs, m)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *bot == "" || *lang == "" {
		return usagef("%s", submitUsage)
	}
	source, err := hosting.Pack(pos[0])
	if err != nil {
		return usagef("%s: %v", pos[0], err)
	}
	if *web != "" {
		return m.submitToWeb(ctx, *web, *bot, *lang, *entry, *token, source)
	}
	st, err := m.openStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	sub, err := hosting.Submit(ctx, st, hosting.Request{Bot: *bot, Token: *token, Lang: *lang, Entry: *entry, Source: source})
	if err != nil {
		if errors.Is(err, domain.ErrInvalid) || errors.Is(err, domain.ErrForbidden) {
			return usagef("%v", err)
		}
		return err
	}
	fmt.Fprintf(m.Stdout, "stored %s: %s, %d KiB, sha256 %s\n", sub.Name(), sub.Lang, (sub.Size+1023)/1024, sub.Digest)
	if *noBuild {
		fmt.Fprintf(m.Stdout, "queued: the ladder builds it (or tapp submissions build %s)\n", sub.Name())
		return nil
	}
	return m.buildVersion(ctx, st, &hf, *dsn, sub)
}

// buildVersion builds one version and prints how it went.
func (m *Main) buildVersion(ctx context.Context, st hosting.Store, hf *hostingFlags, dsn string, sub *domain.Submission) error {
	parts, err := m.hosting(ctx, hf, dsn)
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "building %s in the %s sandbox, without the network ...\n", sub.Name(), parts.sandbox.Name())
	started := time.Now()
	_, err = parts.builder.Build(ctx, st, sub)
	var be *hosting.BuildError
	if errors.As(err, &be) {
		fmt.Fprintf(m.Stdout, "%s\n", strings.TrimRight(be.Log, "\n"))
		return fmt.Errorf("%s: build failed (its log is above; tapp submissions logs %s shows it again)", sub.Name(), sub.Name())
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "%s built in %s: ready to play\n", sub.Name(), time.Since(started).Round(100*time.Millisecond))
	return nil
}

// submitToWeb sends the version to a dashboard's SubmissionService (Connect protocol,
// protobuf), with the bot's token as the Bearer header.
func (m *Main) submitToWeb(ctx context.Context, base, bot, lang, entry, token string, source []byte) error {
	if token == "" {
		return usagef("give the bot's token (--token or TAPP_TOKEN)")
	}
	base = strings.TrimRight(base, "/")
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return usagef("--web %s: give the dashboard's address, https://HOST:PORT", base)
	}
	if u.Scheme != "https" && !isLoopback(u.Hostname()) {
		return usagef("--web %s: the token would cross the network in clear text: use https://", base)
	}
	client := connect.NewClient[viewv1.SubmitVersionRequest, viewv1.SubmitVersionResponse](http.DefaultClient,
		base+"/"+viewv1.SubmissionService_ServiceDesc.ServiceName+"/SubmitVersion", connect.WithReadMaxBytes(1<<20))
	req := connect.NewRequest(&viewv1.SubmitVersionRequest{Bot: bot, Lang: lang, Entry: entry, Archive: source,
		Format: viewv1.ArchiveFormat_ARCHIVE_FORMAT_TAR_GZ})
	req.Header().Set("Authorization", "Bearer "+token)
	resp, err := client.CallUnary(ctx, req)
	if err != nil {
		var ce *connect.Error
		if errors.As(err, &ce) && ce.Code() != connect.CodeUnavailable && ce.Code() != connect.CodeUnknown {
			return fmt.Errorf("the arena refused the submission (%s): %s", ce.Code(), ce.Message())
		}
		return fmt.Errorf("submitting to %s: %w", base, err)
	}
	out := resp.Msg
	fmt.Fprintf(m.Stdout, "stored %s (sha256 %s): %s; the arena builds it on its ladder\n", out.GetName(), out.GetDigest(), out.GetStatus())
	return nil
}

func isLoopback(host string) bool {
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1"
}

const submissionsUsage = `tapp submissions list [--bot NAME] | show NAME@V | logs NAME@V [--logs DIR] | build NAME@V|--queued`

// submissionArgs is each subcommand's arguments, for its -h.
var submissionArgs = map[string]string{
	"list": "[--bot NAME]", "show": "NAME@V", "logs": "NAME@V [--logs DIR]", "build": "NAME@V | --queued",
}

// submissions lists, shows and builds the stored versions of hosted bots: the flags and the
// printing; the use cases are arena/internal/hosting's.
func (m *Main) submissions(ctx context.Context, args []string) error {
	if len(args) == 0 || helpFlag(args[0]) {
		fmt.Fprintf(m.Stdout, "%s\n(tapp submissions SUBCOMMAND -h lists its flags)\n", submissionsUsage)
		return nil
	}
	sub, rest := args[0], args[1:]
	if _, ok := submissionArgs[sub]; !ok {
		return usagef("unknown submissions subcommand %q\n%s", sub, submissionsUsage)
	}
	fs := m.flags("submissions "+sub, submissionArgs[sub])
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	bot := fs.String("bot", "", "list: only this bot's versions")
	logs := fs.String("logs", "", "logs: the folder of the league's bot logs, for the version's run log")
	queued := fs.Bool("queued", false, "build: every version waiting for its build")
	var hf hostingFlags
	hf.register(fs, m)
	pos, err := parse(fs, rest)
	if err != nil {
		return err
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	version := func() (*domain.Submission, error) {
		if len(pos) != 1 {
			return nil, usagef("tapp submissions %s NAME@V (or NAME@latest)", sub)
		}
		s, err := hosting.Version(ctx, st, pos[0])
		if errors.Is(err, domain.ErrInvalid) {
			return nil, usagef("%v", err)
		}
		return s, err
	}
	switch sub {
	case "list":
		return m.submissionsList(ctx, st, *bot)
	case "show":
		s, err := version()
		if err != nil {
			return err
		}
		m.submissionShow(s)
		return nil
	case "logs":
		s, err := version()
		if err != nil {
			return err
		}
		return m.submissionLogs(s, *logs)
	case "build":
		var todo []domain.Submission
		if *queued {
			todo, err = hosting.Unbuilt(ctx, st)
		} else {
			var s *domain.Submission
			if s, err = version(); err == nil {
				todo = append(todo, *s)
			}
		}
		if err != nil {
			return err
		}
		return m.buildVersions(ctx, st, &hf, *dsn, todo)
	}
	return usagef("unknown submissions subcommand %q\n%s", sub, submissionsUsage)
}

// submissionsList prints every version (of one bot, when named).
func (m *Main) submissionsList(ctx context.Context, st hosting.Store, bot string) error {
	list, err := st.Submissions(ctx, bot)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(m.Stdout, "no submissions yet: tapp submit --bot NAME --lang go|python DIR")
		return nil
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "version\tlang\tstatus\tgauntlet\tsize\tsha256\tsubmitted")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d KiB\t%s\t%s\n", s.Name(), s.Lang, s.Status, orDash(s.Gauntlet), (s.Size+1023)/1024,
			s.Digest[:12], s.Created.Local().Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

// submissionShow prints one version.
func (m *Main) submissionShow(s *domain.Submission) {
	fmt.Fprintf(m.Stdout, "%s\nlang:      %s (entry %s)\nstatus:    %s\ngauntlet:  %s\nsource:    sha256 %s, %d bytes, format %d\nsubmitted: %s\n",
		s.Name(), s.Lang, s.Entry, s.Status, orDash(s.Gauntlet), s.Digest, s.Size, s.Format, s.Created.Local().Format(time.RFC3339))
	if !s.Built.IsZero() {
		fmt.Fprintf(m.Stdout, "built:     %s\n", s.Built.Local().Format(time.RFC3339))
	}
}

// submissionLogs prints a version's build log and, given the league's log folder, its run log.
func (m *Main) submissionLogs(s *domain.Submission, logDir string) error {
	fmt.Fprintf(m.Stdout, "== build log of %s (%s)\n%s\n", s.Name(), s.Status, strings.TrimRight(s.BuildLog, "\n"))
	if logDir == "" {
		return nil
	}
	b, path, err := hosting.RunLog(logDir, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "== run log of %s (%s)\n%s", s.Name(), path, b)
	return nil
}

// buildVersions builds each version in turn, going on after a failure, and says how many failed.
func (m *Main) buildVersions(ctx context.Context, st hosting.Store, hf *hostingFlags, dsn string, todo []domain.Submission) error {
	var failed int
	for i := range todo {
		if err := m.buildVersion(ctx, st, hf, dsn, &todo[i]); err != nil {
			fmt.Fprintln(m.Stderr, "tapp:", err)
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d builds failed", failed, len(todo))
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
