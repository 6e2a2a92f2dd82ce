package mgmt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// fakeTenant is an httptest server with a token endpoint and a per-test API handler.
type fakeTenant struct {
	*httptest.Server
	tokens   atomic.Int64
	api      atomic.Int64
	token    string
	lastForm atomic.Value
	handler  http.HandlerFunc
}

func newFakeTenant(t testing.TB, api http.HandlerFunc) *fakeTenant {
	t.Helper()
	f := &fakeTenant{token: "tok-" + t.Name(), handler: api}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" {
			f.tokens.Add(1)
			_ = r.ParseForm()
			f.lastForm.Store(r.PostForm)
			time.Sleep(20 * time.Millisecond) // widen the window for concurrent callers
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":86400}`, f.token)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+f.token {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"statusCode":401,"error":"Unauthorized","message":"Invalid token"}`)
			return
		}
		f.api.Add(1)
		f.handler(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeTenant) client(t testing.TB, mod ...func(*mgmt.Config)) *mgmt.Client {
	t.Helper()
	cfg := mgmt.Config{
		Domain: f.URL, ClientID: "cid", ClientSecret: "csecret-value",
		MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MaxRetries: 3,
	}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := mgmt.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func jsonReply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

func TestClient_oneTokenForConcurrentCallers(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	c := f.client(t)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.GetRole(context.Background(), "rol_1"); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := f.tokens.Load(); n != 1 {
		t.Fatalf("token requests = %d, want 1", n)
	}
	if n := f.api.Load(); n != 50 {
		t.Fatalf("API requests = %d, want 50", n)
	}
	form := f.lastForm.Load().(url.Values)
	wantAud := "https://" + strings.TrimPrefix(f.URL, "http://") + "/api/v2/"
	if got := form["audience"]; len(got) != 1 || got[0] != wantAud {
		t.Fatalf("audience = %v, want %q", got, wantAud)
	}
	if got := form["client_secret"]; len(got) != 1 || got[0] != "csecret-value" {
		t.Fatalf("client_secret not sent in the form: %v", got)
	}
	// No scope parameter: the token carries the grant's scopes, and a
	// tenant may refuse a scope the grant does not give.
	if got, ok := form["scope"]; ok {
		t.Fatalf("the token request sent scope %v", got)
	}
}

func TestClient_staticToken(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	c, err := mgmt.New(mgmt.Config{Domain: f.URL, APIToken: f.token})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetRole(context.Background(), "rol_1"); err != nil {
		t.Fatal(err)
	}
	if f.tokens.Load() != 0 {
		t.Fatal("a static token must not call the token endpoint")
	}
}

func TestClient_tokenEndpointRefusals(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   []string
	}{
		{401, `{"error":"access_denied","error_description":"Unauthorized"}`, []string{`client_id "cid"`, "HTTP 401", "access_denied: Unauthorized", "TENANT_CLIENT_SECRET"}},
		{403, `{"error":"access_denied","error_description":"Client is not authorized to access \"x\"."}`, []string{"HTTP 403", "Client is not authorized", "client grant"}},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			calls := atomic.Int64{}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/oauth/token" {
					t.Errorf("unexpected API call %s", r.URL.Path)
				}
				calls.Add(1)
				jsonReply(w, tc.status, tc.body)
			}))
			defer srv.Close()
			c, _ := mgmt.New(mgmt.Config{Domain: srv.URL, ClientID: "cid", ClientSecret: "s3cr3t-x", MinBackoff: time.Millisecond})
			_, err := c.GetRole(context.Background(), "rol_1")
			var te *mgmt.TokenError
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want *TokenError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "s3cr3t-x") {
				t.Error("the error leaks the secret")
			}
			if calls.Load() != 1 {
				t.Errorf("token calls = %d, want 1 (no retry of a refusal)", calls.Load())
			}
		})
	}
}

func TestParseAPIError_shapes(t *testing.T) {
	for _, tc := range []struct {
		name, body                 string
		status                     int
		wantErr, wantMsg, wantCode string
	}{
		{"standard", `{"statusCode":409,"error":"Conflict","message":"exists","errorCode":"conflict_x"}`, 409, "Conflict", "exists", "conflict_x"},
		{"no errorCode", `{"statusCode":404,"error":"Not Found","message":"The role does not exist."}`, 404, "Not Found", "The role does not exist.", ""},
		{"code and message", `{"code":404,"message":"Notification Resource not found"}`, 404, "Not Found", "Notification Resource not found", ""},
		{"html", `<html><body>Bad gateway</body></html>`, 502, "Bad Gateway", "Bad Gateway", ""},
		{"empty", ``, 500, "Internal Server Error", "Internal Server Error", ""},
		{"truncated", `{"statusCode":400,"mess`, 400, "Bad Request", "Bad Request", ""},
		{"wrong types", `{"statusCode":"x","message":7}`, 400, "Bad Request", "Bad Request", ""},
		{"extra keys", `{"statusCode":403,"error":"Forbidden","message":"no","errorCode":"insufficient_scope","extra":{"a":1}}`, 403, "Forbidden", "no", "insufficient_scope"},
		{"unknown status", `nope`, 599, "HTTP 599", "HTTP 599", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mgmt.ParseAPIError("GET", "/x", tc.status, []byte(tc.body))
			if e.StatusCode != tc.status || e.Err != tc.wantErr || e.Message != tc.wantMsg || e.ErrorCode != tc.wantCode {
				t.Fatalf("got %+v", e)
			}
			if e.Error() == "" {
				t.Fatal("empty Error()")
			}
		})
	}
}

func TestClient_errorHelpers(t *testing.T) {
	for status, is := range map[int]func(error) bool{
		404: mgmt.IsNotFound, 409: mgmt.IsConflict, 403: mgmt.IsForbidden, 401: mgmt.IsUnauthorized, 400: mgmt.IsBadRequest,
	} {
		err := fmt.Errorf("wrapped: %w", mgmt.ParseAPIError("GET", "/x", status, nil))
		if !is(err) {
			t.Errorf("helper for %d did not match", status)
		}
		if is(errors.New("plain")) {
			t.Errorf("helper for %d matched a plain error", status)
		}
	}
}

func TestClient_429RetryAfterAndPOST(t *testing.T) {
	calls := atomic.Int64{}
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			jsonReply(w, 429, `{"statusCode":429,"error":"Too Many Requests","message":"slow down"}`)
			return
		}
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	start := time.Now()
	if _, err := f.client(t).CreateRole(context.Background(), mgmt.Role{Name: "r"}); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < time.Second {
		t.Fatal("Retry-After was not honoured")
	}
	if calls.Load() != 2 {
		t.Fatalf("a 429 POST must be retried once: calls = %d", calls.Load())
	}
}

func TestClient_noRetryOfPOSTAfter500(t *testing.T) {
	calls := atomic.Int64{}
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		jsonReply(w, 500, `{"statusCode":500,"error":"Internal Server Error","message":"boom"}`)
	})
	_, err := f.client(t).CreateRole(context.Background(), mgmt.Role{Name: "r"})
	if mgmt.StatusOf(err) != 500 {
		t.Fatalf("err = %v", err)
	}
	if calls.Load() != 1 {
		t.Fatalf("POST was sent %d times after a 500", calls.Load())
	}
}

func TestClient_retryGETAfter503AndDroppedConnection(t *testing.T) {
	calls := atomic.Int64{}
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			jsonReply(w, 503, `{"statusCode":503,"error":"Service Unavailable","message":"later"}`)
		case 2:
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		default:
			jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
		}
	})
	r, err := f.client(t).GetRole(context.Background(), "rol_1")
	if err != nil || r.ID != "rol_1" {
		t.Fatalf("r=%v err=%v", r, err)
	}
	if calls.Load() != 3 {
		t.Fatalf("calls = %d, want 3", calls.Load())
	}
}

func TestClient_POSTRetriedOnlyWhenItNeverLeft(t *testing.T) {
	// A 503 came from a server (or a proxy) the POST reached: it may have
	// been applied, so it is not sent again; SafeCreate looks it up instead.
	calls := atomic.Int64{}
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			jsonReply(w, 503, `{}`)
			return
		}
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	_, err := f.client(t).CreateRole(context.Background(), mgmt.Role{Name: "r"})
	if mgmt.StatusOf(err) != 503 || !mgmt.IsUncertain(err) {
		t.Fatalf("err = %v", err)
	}
	if calls.Load() != 1 {
		t.Fatalf("calls = %d", calls.Load())
	}

	// Nothing listens: every attempt is a dial error, so even POST is retried.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	c, _ := mgmt.New(mgmt.Config{Domain: "http://" + addr, APIToken: "t", MaxRetries: 2, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	_, err = c.CreateRole(context.Background(), mgmt.Role{Name: "r"})
	if err == nil || !strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Fatalf("err = %v", err)
	}
}

func TestClient_droppedPOSTNotRetried(t *testing.T) {
	calls := atomic.Int64{}
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	if _, err := f.client(t).CreateRole(context.Background(), mgmt.Role{Name: "r"}); err == nil {
		t.Fatal("want an error")
	}
	if calls.Load() != 1 {
		t.Fatalf("a POST that reached the server was repeated: %d", calls.Load())
	}
}

func TestClient_cancellationStopsWait(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		jsonReply(w, 429, `{"statusCode":429,"message":"x"}`)
	})
	c := f.client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.GetRole(ctx, "rol_1")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	// Retry-After asks for 30 seconds: well before them is with the context.
	if time.Since(start) > 25*time.Second {
		t.Fatal("the wait did not end with the context")
	}
	// The hold applies to the next caller too, and it also ends with its context.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	before := f.api.Load()
	if _, err := c.GetRole(ctx2, "rol_1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if f.api.Load() != before {
		t.Fatal("a request was sent while the budget was held")
	}
}

func TestClient_requestShape(t *testing.T) {
	type seen struct {
		method, rawPath, ctype, ua string
		body                       []byte
	}
	got := make(chan seen, 4)
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.EscapedPath(), r.Header.Get("Content-Type"), r.Header.Get("User-Agent"), b}
		switch r.Method {
		case "DELETE":
			w.WriteHeader(204)
		case "GET":
			jsonReply(w, 200, `{"id":"abc","identifier":"https://api.example.com/x","new_field":{"nested":true},"is_system":true}`)
		}
	})
	c := f.client(t, func(cfg *mgmt.Config) { cfg.UserAgent = "terraform-provider-tenant/1.2.3 terraform/1.11.4" })
	rs, err := c.GetResourceServer(context.Background(), "https://api.example.com/x")
	if err != nil || rs.ID != "abc" || !rs.IsSystem {
		t.Fatalf("rs=%+v err=%v", rs, err)
	}
	s := <-got
	if s.rawPath != "/api/v2/resource-servers/https:%2F%2Fapi.example.com%2Fx" {
		t.Errorf("path = %s", s.rawPath)
	}
	if s.ctype != "" || len(s.body) != 0 {
		t.Errorf("GET carries a body or Content-Type: %q %q", s.ctype, s.body)
	}
	if s.ua != "terraform-provider-tenant/1.2.3 terraform/1.11.4" {
		t.Errorf("User-Agent = %q", s.ua)
	}
	if err := c.RemoveRolePermissions(context.Background(), "rol_1", []mgmt.Permission{{ResourceServerIdentifier: "https://a", PermissionName: "read:a"}}); err != nil {
		t.Fatal(err)
	}
	s = <-got
	if s.method != "DELETE" || s.ctype != "application/json" || !bytes.Contains(s.body, []byte(`"permission_name":"read:a"`)) {
		t.Errorf("DELETE permissions: %+v %s", s, s.body)
	}
}

func TestClient_emptyBodiesAccepted(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == "DELETE" && strings.HasPrefix(r.URL.Path, "/api/v2/roles/rol_1/"):
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(204)
		case r.Method == "DELETE":
			jsonReply(w, 200, `{}`)
		case r.Method == "POST":
			jsonReply(w, 201, `{}`)
		}
	})
	c := f.client(t)
	p := []mgmt.Permission{{ResourceServerIdentifier: "https://a", PermissionName: "read:a"}}
	if err := c.AddRolePermissions(context.Background(), "rol_1", p); err != nil {
		t.Fatal(err)
	}
	if err := c.RemoveRolePermissions(context.Background(), "rol_1", p); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteRole(context.Background(), "rol_1"); err != nil {
		t.Fatal(err)
	}
}

func TestClient_deleteNotFoundIsSuccess(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 404, `{"statusCode":404,"error":"Not Found","message":"gone"}`)
	})
	c := f.client(t)
	ctx := context.Background()
	for name, err := range map[string]error{
		"role": c.DeleteRole(ctx, "x"), "rs": c.DeleteResourceServer(ctx, "x"), "tep": c.DeleteTokenExchangeProfile(ctx, "x"),
		"action": c.DeleteAction(ctx, "x", false),
	} {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := c.GetRole(ctx, "x"); !mgmt.IsNotFound(err) {
		t.Errorf("GET 404: %v", err)
	}
}

func TestClient_malformedAnswers(t *testing.T) {
	for name, reply := range map[string]func(w http.ResponseWriter){
		"truncated":   func(w http.ResponseWriter) { jsonReply(w, 200, `{"id":"rol_`) },
		"html":        func(w http.ResponseWriter) { w.WriteHeader(200); fmt.Fprint(w, "<html>oops</html>") },
		"empty 200":   func(w http.ResponseWriter) { w.WriteHeader(200) },
		"wrong shape": func(w http.ResponseWriter) { jsonReply(w, 200, `[1,2,3]`) },
		"no id":       func(w http.ResponseWriter) { jsonReply(w, 200, `{"name":"x"}`) },
		"huge": func(w http.ResponseWriter) {
			w.WriteHeader(200)
			chunk := bytes.Repeat([]byte(" "), 1<<20)
			for range 11 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) { reply(w) })
			r, err := f.client(t).GetRole(context.Background(), "rol_1")
			if err == nil {
				t.Fatalf("accepted %+v", r)
			}
		})
	}
}

func TestClient_paginationWalksEveryPage(t *testing.T) {
	const total = 250
	pages := atomic.Int64{}
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		pages.Add(1)
		var page, per int
		fmt.Sscan(r.URL.Query().Get("page"), &page)
		fmt.Sscan(r.URL.Query().Get("per_page"), &per)
		var items []map[string]string
		for i := page * per; i < min(total, (page+1)*per); i++ {
			items = append(items, map[string]string{"resource_server_identifier": "https://a", "permission_name": fmt.Sprintf("p:%03d", i)})
		}
		b, _ := json.Marshal(map[string]any{"permissions": items, "start": page * per, "limit": per, "total": total})
		jsonReply(w, 200, string(b))
	})
	perms, err := f.client(t).RolePermissions(context.Background(), "rol_1")
	if err != nil {
		t.Fatal(err)
	}
	if len(perms) != total || perms[total-1].PermissionName != "p:249" {
		t.Fatalf("got %d permissions", len(perms))
	}
	if pages.Load() != 3 {
		t.Fatalf("pages = %d, want 3", pages.Load())
	}
}

func TestClient_paginationStopsOnMalformedEnvelope(t *testing.T) {
	for name, body := range map[string]string{
		"start never moves":    `{"permissions":[{"permission_name":"a","resource_server_identifier":"b"}],"start":0,"limit":1,"total":5}`,
		"empty page with more": `{"permissions":[],"start":%d,"limit":100,"total":500}`,
		"zero limit":           `{"permissions":[],"start":%d,"limit":0,"total":5}`,
	} {
		t.Run(name, func(t *testing.T) {
			calls := atomic.Int64{}
			f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
				n := calls.Add(1)
				if n > 10 {
					t.Error("still paginating after 10 pages")
					w.WriteHeader(500)
					return
				}
				var page int
				fmt.Sscan(r.URL.Query().Get("page"), &page)
				b := body
				if strings.Contains(b, "%d") {
					b = fmt.Sprintf(b, page*100)
				}
				jsonReply(w, 200, b)
			})
			if _, err := f.client(t).RolePermissions(context.Background(), "rol_1"); err == nil || !strings.Contains(err.Error(), "malformed") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestClient_checkpointPagination(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("from") {
		case "":
			jsonReply(w, 200, `{"token_exchange_profiles":[{"id":"tep_1","subject_token_type":"urn:a:1"}],"next":"c1"}`)
		case "c1":
			jsonReply(w, 200, `{"token_exchange_profiles":[{"id":"tep_2","subject_token_type":"urn:a:2"}]}`)
		}
	})
	p, err := f.client(t).FindTokenExchangeProfile(context.Background(), "urn:a:2")
	if err != nil || p == nil || p.ID != "tep_2" {
		t.Fatalf("p=%v err=%v", p, err)
	}
	loop := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"token_exchange_profiles":[],"next":"same"}`)
	})
	if _, err := loop.client(t).AllTokenExchangeProfiles(context.Background()); err == nil {
		t.Fatal("a repeating cursor must stop the walk")
	}
}

func TestClient_chunksPermissionWrites(t *testing.T) {
	sizes := make(chan int, 10)
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		var b struct{ Permissions []mgmt.Permission }
		_ = json.NewDecoder(r.Body).Decode(&b)
		sizes <- len(b.Permissions)
		jsonReply(w, 201, `{}`)
	})
	perms := make([]mgmt.Permission, 250)
	for i := range perms {
		perms[i] = mgmt.Permission{ResourceServerIdentifier: "https://a", PermissionName: fmt.Sprint(i)}
	}
	if err := f.client(t).AddRolePermissions(context.Background(), "rol_1", perms); err != nil {
		t.Fatal(err)
	}
	close(sizes)
	var got []int
	for s := range sizes {
		got = append(got, s)
	}
	if fmt.Sprint(got) != "[100 100 50]" {
		t.Fatalf("chunks = %v", got)
	}
}

func TestClient_logsHoldNoSecret(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 201, `{"id":"abc","identifier":"https://a","signing_alg":"HS256","signing_secret":"sig-secret-123456"}`)
	})
	c := f.client(t)
	secret := "sig-secret-123456"
	if _, err := c.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: "https://a", SigningSecret: &secret}); err != nil {
		t.Fatal(err)
	}
	logs := buf.String()
	if !strings.Contains(logs, "/api/v2/resource-servers") || !strings.Contains(logs, `"status":201`) {
		t.Fatalf("expected request logs, got:\n%s", logs)
	}
	for _, s := range []string{"csecret-value", f.token, secret} {
		if strings.Contains(logs, s) {
			t.Errorf("logs contain %q:\n%s", s, logs)
		}
	}
}

func TestNew_credentialRules(t *testing.T) {
	for name, cfg := range map[string]mgmt.Config{
		"both":        {Domain: "t.example.com", ClientID: "a", ClientSecret: "b", APIToken: "c"},
		"none":        {Domain: "t.example.com"},
		"half":        {Domain: "t.example.com", ClientID: "a"},
		"http remote": {Domain: "http://t.example.com", APIToken: "c"},
	} {
		if _, err := mgmt.New(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
