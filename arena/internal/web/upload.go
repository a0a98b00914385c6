package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// Submissions stores a hosted bot's new version for the bot's token holder: the hosting use
// case, which the command wires in, so that the dashboard links none of the building,
// sandboxes or ladders behind it. Its errors wrap domain.ErrInvalid when the upload is at
// fault and domain.ErrForbidden when the token is not the bot's.
type Submissions func(ctx context.Context, u Upload) (*domain.Submission, error)

// Upload is one version of a hosted bot, uploaded.
type Upload struct {
	Bot     string // the registered bot it is a version of
	Token   string // the bot's token
	Lang    string // go or python
	Entry   string // python: the file to run; go: the package to build ("": the default)
	Archive []byte // the source: an archive of the format Format
	Format  string // tar.gz or zip
}

// MaxUpload bounds an uploaded archive (the hosting use case's own bound on a source).
const MaxUpload = 64 << 20

// uploadHandler is the dashboard's upload of a hosted bot's version, for the bot's token holder:
// POST /api/submissions?bot=NAME&lang=go|python[&entry=FILE] with the bot's token as a Bearer
// header and the source as the body (a .tar.gz, or a .zip with ?format=zip); `tapp submit
// --web URL` and the page upload.html use it. The version is stored queued: the standing
// ladder builds it. Errors are JSON {"code", "message"} with the codes of the API
// (invalid_argument, permission_denied, unauthenticated). A token never crosses a network
// in clear text: over plain HTTP only loopback clients may upload.
func uploadHandler(submit Submissions, log *zap.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail := func(status int, code, msg string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "message": msg})
		}
		if r.Method != http.MethodPost {
			fail(http.StatusMethodNotAllowed, "invalid_argument", "POST the source")
			return
		}
		if r.TLS == nil && !loopbackClient(r) {
			fail(http.StatusForbidden, "permission_denied", "uploads carry a bot token: use TLS, or upload from this machine")
			return
		}
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" {
			fail(http.StatusUnauthorized, "unauthenticated", "send the bot's token as Authorization: Bearer TOKEN")
			return
		}
		q := r.URL.Query()
		format := "tar.gz"
		if q.Get("format") == "zip" {
			format = "zip"
		}
		archive, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxUpload))
		if err != nil {
			fail(http.StatusBadRequest, "invalid_argument", "reading the upload: "+err.Error())
			return
		}
		sub, err := submit(r.Context(), Upload{Bot: q.Get("bot"), Token: token, Lang: q.Get("lang"), Entry: q.Get("entry"), Archive: archive, Format: format})
		switch {
		case errors.Is(err, domain.ErrForbidden):
			fail(http.StatusForbidden, "permission_denied", err.Error())
			return
		case errors.Is(err, domain.ErrInvalid):
			fail(http.StatusBadRequest, "invalid_argument", err.Error())
			return
		case err != nil:
			log.Error("upload failed", zap.Error(err))
			fail(http.StatusInternalServerError, "internal", "the arena could not store the version")
			return
		}
		log.Info("version submitted", zap.String("version", sub.Name()), zap.String("digest", sub.Digest))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"name": sub.Name(), "digest": sub.Digest, "status": string(sub.Status)})
	})
}

func loopbackClient(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
