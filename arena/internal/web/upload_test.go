package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/web"
)

// The dashboard's upload stores a version for the bot's token holder only, answers with the
// API's error codes, and takes no token over plain HTTP from another machine.
func TestTheUploadStoresAVersionForTheTokenHolderOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	token := server.NewToken("bot_")
	if err := st.CreateBot(ctx, &domain.Bot{Name: "pybot", TokenHash: server.HashToken(token)}); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "pybot")
	_ = os.MkdirAll(src, 0o755)
	_ = os.WriteFile(filepath.Join(src, "bot.py"), []byte("import tapp_bot\n"), 0o644)
	archive, err := hosting.Pack(src)
	if err != nil {
		t.Fatal(err)
	}
	// The port wired as the command wires it: the hosting use case over the store.
	submit := func(ctx context.Context, u web.Upload) (*domain.Submission, error) {
		return hosting.SubmitArchive(ctx, st, hosting.Request{Bot: u.Bot, Token: u.Token, Lang: u.Lang, Entry: u.Entry}, u.Archive, u.Format)
	}
	h, err := web.Handler(web.Config{View: web.NewView(st, nil, nil), Submissions: submit})
	if err != nil {
		t.Fatal(err)
	}
	post := func(remote, tok, query string) (int, map[string]string) {
		req := httptest.NewRequest(http.MethodPost, "/api/submissions?"+query, strings.NewReader(string(archive)))
		req.RemoteAddr = remote
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var body map[string]string
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		return rec.Code, body
	}
	for _, tc := range []struct {
		name, remote, token, query string
		status                     int
		code                       string
	}{
		{"no token", "127.0.0.1:5000", "", "bot=pybot&lang=python", 401, "unauthenticated"},
		{"another token", "127.0.0.1:5000", server.NewToken("bot_"), "bot=pybot&lang=python", 403, "permission_denied"},
		{"plain HTTP from afar", "203.0.113.7:5000", token, "bot=pybot&lang=python", 403, "permission_denied"},
		{"unknown language", "127.0.0.1:5000", token, "bot=pybot&lang=cobol", 400, "invalid_argument"},
		{"not a zip", "127.0.0.1:5000", token, "bot=pybot&lang=python&format=zip", 400, "invalid_argument"},
	} {
		if status, body := post(tc.remote, tc.token, tc.query); status != tc.status || body["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", tc.name, status, body, tc.status, tc.code)
		}
	}
	status, body := post("127.0.0.1:5000", token, "bot=pybot&lang=python")
	if status != 200 || body["name"] != "pybot@1" || body["digest"] != hosting.Digest(archive) || body["status"] != "queued" {
		t.Fatalf("upload: %d %v", status, body)
	}
	if subs, _ := st.Submissions(ctx, "pybot"); len(subs) != 1 {
		t.Errorf("stored %d versions, want 1", len(subs))
	}
}
