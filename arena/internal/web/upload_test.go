package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"connectrpc.com/connect"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/web"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// The dashboard's upload, the SubmissionService, stores a version for the bot's token holder
// only, answers with the API's error codes, refuses an archive above the size limit, and
// takes no token over plain HTTP from another machine.
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
	// A call as the upload page makes it: Connect protocol, protobuf JSON, the archive in base64.
	call := func(remote, tok, bot, lang string, format any, archive []byte) (int, map[string]any) {
		body, _ := json.Marshal(map[string]any{"bot": bot, "lang": lang, "archive": archive, "format": format})
		req := httptest.NewRequest(http.MethodPost, "/tapp.view.v1.SubmissionService/SubmitVersion", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		req.RemoteAddr = remote
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var out map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		return rec.Code, out
	}
	const here, afar = "127.0.0.1:5000", "203.0.113.7:5000"
	tooBig := make([]byte, web.MaxUpload+1)
	for _, tc := range []struct {
		name, remote, token, lang string
		format                    any
		archive                   []byte
		status                    int
		code                      string
	}{
		{"no token", here, "", "python", "", archive, 401, "unauthenticated"},
		{"another token", here, server.NewToken("bot_"), "python", "", archive, 403, "permission_denied"},
		{"plain HTTP from afar", afar, token, "python", "", archive, 403, "permission_denied"},
		{"unknown language", here, token, "cobol", "", archive, 400, "invalid_argument"},
		{"not a zip", here, token, "python", "ARCHIVE_FORMAT_ZIP", archive, 400, "invalid_argument"},
		{"unknown format", here, token, "python", 7, archive, 400, "invalid_argument"},
		{"above the size limit", here, token, "python", "", tooBig, 400, "invalid_argument"},
	} {
		if status, body := call(tc.remote, tc.token, "pybot", tc.lang, tc.format, tc.archive); status != tc.status || body["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", tc.name, status, body, tc.status, tc.code)
		}
	}
	status, body := call(here, token, "pybot", "python", "ARCHIVE_FORMAT_TAR_GZ", archive)
	if status != 200 || body["name"] != "pybot@1" || body["digest"] != hosting.Digest(archive) || body["status"] != "queued" {
		t.Fatalf("upload: %d %v", status, body)
	}
	// The same service through the generated messages, over the wire in protobuf, as
	// `tapp submit --web` calls it.
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := connect.NewClient[viewv1.SubmitVersionRequest, viewv1.SubmitVersionResponse](srv.Client(),
		srv.URL+"/tapp.view.v1.SubmissionService/SubmitVersion")
	send := func(tok string) (*connect.Response[viewv1.SubmitVersionResponse], error) {
		req := connect.NewRequest(&viewv1.SubmitVersionRequest{Bot: "pybot", Lang: "python", Archive: archive})
		req.Header().Set("Authorization", "Bearer "+tok)
		return client.CallUnary(ctx, req)
	}
	if _, err := send(server.NewToken("bot_")); connect.CodeOf(err) != connect.CodePermissionDenied {
		t.Errorf("another token over protobuf: %v, want permission_denied", err)
	}
	if resp, err := send(token); err != nil || resp.Msg.GetName() != "pybot@2" || resp.Msg.GetVersion() != 2 {
		t.Fatalf("upload over protobuf: %v, %v", resp, err)
	}
	if subs, _ := st.Submissions(ctx, "pybot"); len(subs) != 2 {
		t.Errorf("stored %d versions, want 2", len(subs))
	}
}
