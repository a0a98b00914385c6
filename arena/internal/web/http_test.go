package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/store"
)

// dashboard serves the handler with the viewer token given over an empty store.
func dashboard(t *testing.T, viewerToken string) *httptest.Server {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := Handler(Config{View: NewView(st, nil, nil), ViewerToken: viewerToken})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// noRedirects is a client that shows redirects instead of following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// call posts a Connect request with body and the header lines given ("Name: value").
func call(t *testing.T, srv *httptest.Server, method, body string, headers ...string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL+"/tapp.view.v1.ViewService/"+method, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Connect-Protocol-Version", "1")
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Add(k, v)
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return res, out
}

// A request body that is not the method's message is the client's mistake: invalid_argument
// and HTTP 400, not a 500 internal error.
func TestMalformedRequestsAreInvalidArgument(t *testing.T) {
	t.Parallel()
	srv := dashboard(t, "")
	for _, body := range []string{"{not json", `{"limit": "many"}`, `[1, 2]`} {
		res, out := call(t, srv, "ListMatches", body)
		if res.StatusCode != http.StatusBadRequest || out["code"] != "invalid_argument" {
			t.Errorf("body %q: HTTP %d %v, want 400 invalid_argument", body, res.StatusCode, out)
		}
	}
	if res, out := call(t, srv, "ListMatches", `{"limit": 5, "fromTheFuture": true}`); res.StatusCode != http.StatusOK {
		t.Errorf("a well-formed request with a field this version lacks: HTTP %d %v, want 200", res.StatusCode, out)
	}
}

// Every response says that no other site may frame it and that no referrer leaves it.
func TestPagesRefuseFramingAndReferrers(t *testing.T) {
	t.Parallel()
	srv := dashboard(t, "")
	page, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page.Body.Close()
	api, _ := call(t, srv, "ListMatches", "{}")
	for name, res := range map[string]*http.Response{"page": page, "api": api} {
		if got := res.Header.Get("X-Frame-Options"); got != "DENY" {
			t.Errorf("%s: X-Frame-Options %q, want DENY", name, got)
		}
		if got := res.Header.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("%s: Referrer-Policy %q, want no-referrer", name, got)
		}
	}
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("page: Content-Security-Policy %q lacks frame-ancestors 'none'", csp)
	}
}

// The viewer token in a link is exchanged for a cookie at once: the browser is sent on to the
// same address without it, and the page's calls carry the cookie instead.
func TestViewerTokenLeavesTheAddressForACookie(t *testing.T) {
	t.Parallel()
	srv := dashboard(t, "s3cret")
	res, err := noRedirects.Get(srv.URL + "/?token=s3cret&x=1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/?x=1" {
		t.Fatalf("GET /?token=…: HTTP %d to %q, want 303 to /?x=1", res.StatusCode, res.Header.Get("Location"))
	}
	var c *http.Cookie
	for _, k := range res.Cookies() {
		if k.Name == viewerCookie {
			c = k
		}
	}
	if c == nil || c.Value != "s3cret" || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v, want %s=s3cret, HttpOnly, SameSite=Strict", c, viewerCookie)
	}
	if r, _ := call(t, srv, "ListMatches", "{}", "Cookie: "+viewerCookie+"=s3cret"); r.StatusCode != http.StatusOK {
		t.Errorf("a call with the cookie: HTTP %d, want 200", r.StatusCode)
	}
	if r, out := call(t, srv, "ListMatches", "{}", "Cookie: "+viewerCookie+"=guess"); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a call with a wrong cookie: HTTP %d %v, want 401", r.StatusCode, out)
	}
	if r, _ := call(t, srv, "ListMatches", "{}", "Authorization: Bearer s3cret"); r.StatusCode != http.StatusOK {
		t.Errorf("a call with the Bearer header: HTTP %d, want 200", r.StatusCode)
	}
	// A wrong token sets no cookie, and is taken out of the address all the same.
	res, err = noRedirects.Get(srv.URL + "/?token=guess")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" || len(res.Cookies()) != 0 {
		t.Errorf("a wrong token: HTTP %d to %q with cookies %v, want 303 to / without one", res.StatusCode, res.Header.Get("Location"), res.Cookies())
	}
}
