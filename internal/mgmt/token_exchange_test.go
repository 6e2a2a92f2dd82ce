package mgmt_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// exchangeTenant answers /oauth/token with status and body, and records the
// exchange requests it gets.
func exchangeTenant(t *testing.T, status int, body string) (*mgmt.Client, *[]url.Values, *atomic.Int64) {
	t.Helper()
	var seen []url.Values
	var hits atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.URL.Path != "/oauth/token" || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			t.Errorf("unexpected request %s %s (%s): %v", r.Method, r.URL.Path, r.Header.Get("Content-Type"), err)
		}
		if r.PostForm.Get("grant_type") == "client_credentials" {
			t.Errorf("the exchange fetched a Management API token")
		}
		hits.Add(1)
		seen = append(seen, r.PostForm)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(s.Close)
	c, err := mgmt.New(mgmt.Config{Domain: s.URL, ClientID: "mgmt-id", ClientSecret: "mgmt-secret", MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c, &seen, &hits
}

func TestExchangeToken_request(t *testing.T) {
	c, seen, _ := exchangeTenant(t, 200, `{"access_token":"eyJ.a.b","id_token":"eyJ.c.d","scope":"openid read:orders","expires_in":3600,"token_type":"Bearer"}`)
	got, err := c.ExchangeToken(context.Background(), mgmt.TokenExchangeRequest{
		ClientID: "app", ClientSecret: "app-secret", SubjectToken: "legacy-token", SubjectTokenType: "urn:acme:legacy",
		Audience: "https://api.example.com/orders/", Scopes: []string{"openid", "read:orders"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.AccessToken != "eyJ.a.b" || got.IDToken != "eyJ.c.d" || got.Scope != "openid read:orders" || got.ExpiresIn != 3600 || got.TokenType != "Bearer" {
		t.Fatalf("answer %+v", got)
	}
	want := url.Values{
		"grant_type": {mgmt.TokenExchangeGrant}, "client_id": {"app"}, "client_secret": {"app-secret"},
		"subject_token": {"legacy-token"}, "subject_token_type": {"urn:acme:legacy"},
		"audience": {"https://api.example.com/orders/"}, "scope": {"openid read:orders"},
	}
	if f := (*seen)[0]; f.Encode() != want.Encode() {
		t.Fatalf("form %s, want %s", f.Encode(), want.Encode())
	}
}

// A public client sends its id alone; optional parameters stay out.
func TestExchangeToken_publicClient(t *testing.T) {
	c, seen, _ := exchangeTenant(t, 200, `{"access_token":"eyJ.a.b","expires_in":60,"token_type":"Bearer"}`)
	if _, err := c.ExchangeToken(context.Background(), mgmt.TokenExchangeRequest{ClientID: "spa", SubjectToken: "t", SubjectTokenType: "urn:acme:t"}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"client_secret", "audience", "scope"} {
		if _, ok := (*seen)[0][k]; ok {
			t.Errorf("%s was sent: %s", k, (*seen)[0].Encode())
		}
	}
}

// A refusal is an *OAuthError with the tenant's words, sent once: an
// exchange is never repeated, not after a 429 or a 500 either.
func TestExchangeToken_refusals(t *testing.T) {
	for _, tc := range []struct {
		status      int
		body        string
		code, descr string
	}{
		{400, `{"error":"invalid_request","error_description":"The subject token is not a valid legacy IdP token."}`, "invalid_request", "The subject token is not a valid legacy IdP token."},
		{400, `{"error":"account_locked","error_description":"Locked by policy"}`, "account_locked", "Locked by policy"},
		{429, `{"error":"too_many_attempts","error_description":"We have detected suspicious login behavior and further attempts will be blocked. Please contact the administrator."}`, "too_many_attempts", "We have detected suspicious login behavior and further attempts will be blocked. Please contact the administrator."},
		{500, `{"error":"server_error","error_description":"The custom token exchange action failed."}`, "server_error", "The custom token exchange action failed."},
		{403, `{"code":"unauthorized_client","description":"not allowed"}`, "unauthorized_client", "not allowed"},
		{502, `<html>Bad gateway</html>`, "Bad Gateway", ""},
	} {
		t.Run(fmt.Sprint(tc.status, tc.code), func(t *testing.T) {
			c, _, hits := exchangeTenant(t, tc.status, tc.body)
			_, err := c.ExchangeToken(context.Background(), mgmt.TokenExchangeRequest{ClientID: "app", ClientSecret: "s", SubjectToken: "t", SubjectTokenType: "urn:acme:t"})
			var oe *mgmt.OAuthError
			if !errors.As(err, &oe) || oe.StatusCode != tc.status || oe.Code != tc.code || oe.Description != tc.descr {
				t.Fatalf("got %#v", err)
			}
			if hits.Load() != 1 {
				t.Fatalf("%d requests, want 1", hits.Load())
			}
		})
	}
}

func TestExchangeToken_noAccessToken(t *testing.T) {
	c, _, _ := exchangeTenant(t, 200, `{"token_type":"Bearer"}`)
	_, err := c.ExchangeToken(context.Background(), mgmt.TokenExchangeRequest{ClientID: "app", SubjectToken: "t", SubjectTokenType: "urn:acme:t"})
	if err == nil || !strings.Contains(err.Error(), "holds no access token") {
		t.Fatalf("got %v", err)
	}
}

// The exchange never follows a redirect: the subject token and the secret
// go to the configured host only.
func TestExchangeToken_redirectRefused(t *testing.T) {
	plain, hits := plainListener(t)
	tenant := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer tenant.Close()
	c, err := mgmt.New(mgmt.Config{Domain: tenant.URL, ClientID: "m", ClientSecret: "s"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ExchangeToken(context.Background(), mgmt.TokenExchangeRequest{ClientID: "app", ClientSecret: "app-secret", SubjectToken: "t", SubjectTokenType: "urn:acme:t"})
	var re *mgmt.RedirectError
	if !errors.As(err, &re) || hits.Load() != 0 {
		t.Fatalf("got %v, %d requests reached the redirect's target", err, hits.Load())
	}
}

// Delegation: the actor token and its type go in the form, together.
func TestExchangeToken_actor(t *testing.T) {
	c, seen, _ := exchangeTenant(t, 200, `{"access_token":"eyJ.a.b","expires_in":60,"token_type":"Bearer"}`)
	if _, err := c.ExchangeToken(context.Background(), mgmt.TokenExchangeRequest{ClientID: "spa", SubjectToken: "t", SubjectTokenType: "urn:acme:t",
		ActorToken: "agent-token", ActorTokenType: "urn:acme:agent"}); err != nil {
		t.Fatal(err)
	}
	if f := (*seen)[0]; f.Get("actor_token") != "agent-token" || f.Get("actor_token_type") != "urn:acme:agent" {
		t.Fatalf("form %s", f.Encode())
	}
}

// An organization goes in the form as the organization parameter; none,
// no parameter.
func TestExchangeToken_organization(t *testing.T) {
	c, seen, _ := exchangeTenant(t, 200, `{"access_token":"eyJ.a.b","expires_in":60,"token_type":"Bearer"}`)
	for _, org := range []string{"acme", ""} {
		if _, err := c.ExchangeToken(context.Background(), mgmt.TokenExchangeRequest{ClientID: "spa", SubjectToken: "t", SubjectTokenType: "urn:acme:t",
			Organization: org}); err != nil {
			t.Fatal(err)
		}
	}
	if f := (*seen)[0]; f.Get("organization") != "acme" {
		t.Fatalf("form %s", f.Encode())
	}
	if f := (*seen)[1]; f.Has("organization") {
		t.Fatalf("form without an organization %s", f.Encode())
	}
}
