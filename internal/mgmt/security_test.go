package mgmt_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// plainListener records every request that reaches it: with redirects
// refused, nothing ever should.
func plainListener(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(200)
	}))
	t.Cleanup(s.Close)
	return s, &hits
}

func TestClient_redirectsAreNeverFollowed(t *testing.T) {
	plain, hits := plainListener(t)
	for _, tc := range []struct {
		name   string
		status int
		token  bool // redirect the token endpoint (otherwise the API)
	}{
		{"token endpoint 307 to plain http", 307, true},
		{"token endpoint 308 to plain http", 308, true},
		{"api 307 to plain http", 307, false},
		{"api 302 to plain http", 302, false},
		{"api 301 to plain http", 301, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tenant := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/oauth/token" && !tc.token {
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprint(w, `{"access_token":"tok","token_type":"Bearer","expires_in":86400}`)
					return
				}
				http.Redirect(w, r, plain.URL+r.URL.Path, tc.status)
			}))
			defer tenant.Close()
			c, err := mgmt.New(mgmt.Config{
				Domain: tenant.URL, ClientID: "cid", ClientSecret: "csecret-value",
				HTTPClient: tenant.Client(), MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.CreateRole(context.Background(), mgmt.Role{Name: "r"})
			if err == nil || !strings.Contains(err.Error(), plain.URL) || !strings.Contains(err.Error(), "not followed") {
				t.Fatalf("err = %v", err)
			}
			if strings.Contains(err.Error(), "csecret-value") {
				t.Fatalf("the secret is in the error: %v", err)
			}
			var re *mgmt.RedirectError
			if !errors.As(err, &re) || re.Status != tc.status {
				t.Fatalf("want a RedirectError with status %d, got %#v", tc.status, err)
			}
			if mgmt.IsUncertain(err) {
				t.Fatal("a refused redirect is not an uncertain write")
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the plain HTTP listener received %d requests", n)
	}
}

func TestClient_redirectToAnotherHostOnAPIToken(t *testing.T) {
	other, hits := plainListener(t)
	tenant := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
	}))
	defer tenant.Close()
	c, err := mgmt.New(mgmt.Config{Domain: tenant.URL, APIToken: "static-token", HTTPClient: tenant.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetRole(context.Background(), "rol_1"); err == nil {
		t.Fatal("want an error")
	}
	if hits.Load() != 0 {
		t.Fatal("the static token was sent to another host")
	}
}

func TestClient_dotAndEmptySegmentsRefused(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request reached the server: %s %s", r.Method, r.URL.EscapedPath())
		jsonReply(w, 200, `{}`)
	})
	c := f.client(t)
	ctx := context.Background()
	for _, id := range []string{".", "..", "", "%2e", "%2E%2E", "../roles", "x/../../roles", "%2E%2E%2Froles", "%252E%252E"} {
		calls := map[string]error{}
		_, calls["GetRole"] = c.GetRole(ctx, id)
		_, calls["RolePermissions"] = c.RolePermissions(ctx, id)
		calls["AddRolePermissions"] = c.AddRolePermissions(ctx, id, []mgmt.Permission{{ResourceServerIdentifier: "a", PermissionName: "b"}})
		calls["RemoveRolePermissions"] = c.RemoveRolePermissions(ctx, id, []mgmt.Permission{{ResourceServerIdentifier: "a", PermissionName: "b"}})
		_, calls["GetResourceServer"] = c.GetResourceServer(ctx, id)
		_, calls["UpdateResourceServer"] = c.UpdateResourceServer(ctx, id, mgmt.ResourceServerUpdate{})
		calls["DeleteResourceServer"] = c.DeleteResourceServer(ctx, id)
		_, calls["GetTokenExchangeProfile"] = c.GetTokenExchangeProfile(ctx, id)
		calls["DeleteTokenExchangeProfile"] = c.DeleteTokenExchangeProfile(ctx, id)
		_, calls["TryPhoneProvider"] = c.TryPhoneProvider(ctx, id, mgmt.PhoneTest{To: "+1"})
		for name, err := range calls {
			var pe *mgmt.PathError
			if !errors.As(err, &pe) {
				t.Errorf("%s(%q): want a PathError, got %v", name, id, err)
			}
		}
	}
	if f.tokens.Load() != 0 {
		t.Fatalf("a token was fetched for requests that were never sent")
	}
	// Values with dots that are not dot segments are fine.
	f.handler = func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 200, `{"id":"x.y","name":"n"}`) }
	if _, err := c.GetRole(ctx, "x.y"); err != nil {
		t.Fatal(err)
	}
	// An identifier is a URL: its slashes, even doubled, are not segments.
	f.handler = func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"id":"abc","identifier":"https://api.example.com/v1/"}`)
	}
	if _, err := c.GetResourceServer(ctx, "https://api.example.com/v1/"); err != nil {
		t.Fatal(err)
	}
}

func TestClient_cancelInterruptsSlowTokenRequest(t *testing.T) {
	release := make(chan struct{})
	var started atomic.Int64
	tenant := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" {
			started.Add(1)
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		w.WriteHeader(500)
	}))
	defer tenant.Close()
	defer close(release)
	c, err := mgmt.New(mgmt.Config{Domain: tenant.URL, ClientID: "cid", ClientSecret: "csecret-value", RequestTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 5)
	for range 5 {
		go func() {
			_, err := c.GetRole(ctx, "rol_1")
			errs <- err
		}()
	}
	for started.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	begin := time.Now()
	cancel()
	for range 5 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	}
	if d := time.Since(begin); d > 50*time.Second { // without the cancel they wait the minute of RequestTimeout
		t.Fatalf("callers returned %s after the cancel", d)
	}
	if started.Load() != 1 {
		t.Fatalf("%d token requests for 5 callers", started.Load())
	}
}

func TestClient_lookupByIdentifierChecksTheAnswer(t *testing.T) {
	// The API decodes the value twice (reference §4): asking for the
	// identifier "https://a/%41" can answer the API "https://a/A".
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"id":"0123456789abcdef01234567","identifier":"https://a/A"}`)
	})
	c := f.client(t)
	if _, err := c.GetResourceServer(context.Background(), "https://a/%41"); !mgmt.IsNotFound(err) {
		t.Fatalf("want a 404 for an answer about another API, got %v", err)
	}
	for _, key := range []string{"https://a/A", "0123456789abcdef01234567"} {
		if rs, err := c.GetResourceServer(context.Background(), key); err != nil || rs.Identifier != "https://a/A" {
			t.Fatalf("%s: rs=%v err=%v", key, rs, err)
		}
	}
}
