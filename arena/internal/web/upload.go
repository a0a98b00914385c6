package web

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/hosting"
)

// Upload is the dashboard's upload of a hosted bot's version, for the bot's token holder:
// POST /api/submissions?bot=NAME&lang=go|python[&entry=FILE] with the bot's token as a Bearer
// header and the source as the body (a .tar.gz, or a .zip with ?format=zip); `tapp submit
// --web URL` and the page upload.html use it. The version is stored queued: the standing
// ladder builds it. Errors are JSON {"code", "message"} with the codes of the API
// (invalid_argument, permission_denied, unauthenticated). A token never crosses a network
// in clear text: over plain HTTP only loopback clients may upload.
func Upload(st hosting.Store, log *zap.Logger) http.Handler {
	if log == nil {
		log = zap.NewNop()
	}
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
		ext := ".tar.gz"
		if q.Get("format") == "zip" {
			ext = ".zip"
		}
		// The upload is packed anew (checked, normalised) from a file of its own.
		tmp, err := os.MkdirTemp("", "tapp-upload-")
		if err != nil {
			fail(http.StatusInternalServerError, "internal", "cannot store the upload")
			return
		}
		defer os.RemoveAll(tmp)
		path := filepath.Join(tmp, "source"+ext)
		f, err := os.Create(path)
		if err == nil {
			_, err = io.Copy(f, http.MaxBytesReader(w, r.Body, hosting.MaxArchive))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fail(http.StatusBadRequest, "invalid_argument", "reading the upload: "+err.Error())
			return
		}
		source, err := hosting.Pack(path)
		if err != nil {
			fail(http.StatusBadRequest, "invalid_argument", err.Error())
			return
		}
		sub, err := hosting.Submit(r.Context(), st, hosting.Request{Bot: q.Get("bot"), Token: token, Lang: q.Get("lang"), Entry: q.Get("entry"), Source: source})
		switch {
		case errors.Is(err, hosting.ErrForbidden):
			fail(http.StatusForbidden, "permission_denied", err.Error())
			return
		case errors.Is(err, hosting.ErrInvalid):
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
