package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// version is `tapp version` (and `tapp --version`): the build, and the versions of the formats
// this binary writes, which stored history and exports carry.
func (m *Main) version(_ context.Context, args []string) error {
	fs := m.flags("version", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("tapp version takes no arguments")
	}
	schema, err := store.LatestSchema()
	if err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo()
	recordFormat, encoding := store.RecordFormat()
	writeVersion(m.Stdout, info, formats{RecordFormat: recordFormat, RequestEncoding: encoding,
		Protocol: string(tappv1.File_tapp_v1_bot_proto.Package()), Arena: server.Version, Schema: schema,
		Export: replay.FormatVersion, Commitment: match.CommitmentVersion, Chain: dealchain.Version, Analysis: analysis.Version,
	})
	return nil
}

// formats are the versions of what the binary writes and reads.
type formats struct {
	Protocol string // the protobuf package bots speak
	Arena    string // the arena's implementation of it, sent in Welcome
	Schema   int    // the newest store schema
	// RecordFormat is the format compact deal records are written in; RequestEncoding the
	// encoding of the requests they rebuild.
	RecordFormat    int
	RequestEncoding string
	Export          string // the replay export's format field
	Commitment      string // the deal commitment's
	Chain           int    // the chain of stored deals' (and of its canonical deal text)
	Analysis        int    // the stored double-dummy analyses'
}

// writeVersion writes the build (module version, VCS revision and whether the tree had
// changes, Go version) and the formats; info nil is a build without its information.
func writeVersion(w io.Writer, info *debug.BuildInfo, f formats) {
	version, revision, when, modified := "(unknown)", "", "", false
	goVersion := runtime.Version()
	if info != nil {
		version, goVersion = info.Main.Version, info.GoVersion
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if version == "" {
		version = "(devel)"
	}
	fmt.Fprintf(w, "tapp %s\n", version)
	switch {
	case revision == "":
		fmt.Fprintln(w, "  commit   unknown (built without version control information)")
	case modified:
		fmt.Fprintf(w, "  commit   %s %s, with uncommitted changes (dirty)\n", revision, when)
	default:
		fmt.Fprintf(w, "  commit   %s %s\n", revision, when)
	}
	fmt.Fprintf(w, "  go       %s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "  protocol %s (%s)\n", f.Protocol, f.Arena)
	fmt.Fprintf(w, "  store    schema %d, deal records format %d (%s)\n", f.Schema, f.RecordFormat, f.RequestEncoding)
	fmt.Fprintf(w, "  export   %s\n", f.Export)
	fmt.Fprintf(w, "  deals    commitment %q, chain %d, analysis %d\n", f.Commitment, f.Chain, f.Analysis)
}
