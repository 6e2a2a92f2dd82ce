package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// A client's token_exchange, first-party and OIDC flags, metadata and
// jwt_configuration are what an exchange reads of it.
func TestExchangeClientOf(t *testing.T) {
	c := &tenant.ClientRecord{ID: "app", Secret: "s", Fields: map[string]json.RawMessage{
		"name": wire.Raw("App"), "is_first_party": wire.Raw(true), "oidc_conformant": wire.Raw(true),
		"token_exchange":    wire.Raw(map[string]any{"allow_any_profile_of_type": []string{"custom_authentication"}}),
		"client_metadata":   wire.Raw(map[string]string{"tier": "gold"}),
		"jwt_configuration": wire.Raw(map[string]any{"alg": "HS256", "lifetime_in_seconds": 60}),
	}}
	ec := exchangeClientOf(c)
	if ec.id != "app" || ec.name != "App" || !ec.firstParty || !ec.oidcConformant || !slices.Equal(ec.profileTypes, []string{"custom_authentication"}) ||
		ec.metadata["tier"] != "gold" || ec.idTokenAlg != "HS256" || ec.idTokenLifetime != time.Minute || ec.trustIPHeader {
		t.Fatalf("%+v", ec)
	}
	if d := exchangeClientOf(&tenant.ClientRecord{Fields: map[string]json.RawMessage{}}); d.idTokenAlg != "RS256" || d.idTokenLifetime != 36000*time.Second {
		t.Fatalf("defaults %+v", d)
	}
}

// Each rejected subject token takes an attempt of its address; an address
// without one is throttled until one comes back, a rate later.
func TestThrottle_attemptsComeBack(t *testing.T) {
	tn := &tenant.Tenant{St: tenant.NewStore()}
	tn.SeedIPThrottling(false, 2, time.Minute)
	s := &Server{Tenant: tn}
	now := time.Now()
	for range 2 {
		if s.throttled("10.0.0.1", now) {
			t.Fatal("throttled before its attempts were spent")
		}
		s.countInvalidSubjectToken("10.0.0.1", now)
	}
	if !s.throttled("10.0.0.1", now) || s.throttled("10.0.0.2", now) {
		t.Fatal("the spent address is not throttled, or another is")
	}
	if s.throttled("10.0.0.1", now.Add(time.Minute)) {
		t.Fatal("still throttled a rate later")
	}
}

// An exchange's later actions see its earlier cache writes, in order.
func TestCacheWrites_over(t *testing.T) {
	w := cacheWrites{"post-login": {{Op: "set", Key: "k", Value: "v"}, {Op: "delete", Key: "old"}}}
	got := w.over(map[string]actionruntime.CacheRecord{"old": {Value: "x"}, "kept": {Value: "y"}}, "post-login")
	if len(got) != 2 || got["k"].Value != "v" || got["kept"].Value != "y" {
		t.Fatalf("%v", got)
	}
	if got := w.over(map[string]actionruntime.CacheRecord{"old": {Value: "x"}}, "custom-token-exchange"); len(got) != 1 {
		t.Fatalf("another trigger's records changed: %v", got)
	}
}

// The token endpoint runs on a tenant alone, without the Management API:
// an exchange through a deployed action in the store issues a token for
// the user the action sets, which the JWKS verifies.
func TestRoutes_exchangeOnATenantAlone(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	in := actionruntime.NewInstaller(actionruntime.InstallerOptions{Cache: t.TempDir(), Npm: filepath.Join(t.TempDir(), "no-npm")})
	defer in.Close()
	rt := actionruntime.New(actionruntime.Options{})
	defer rt.Close()
	if _, err := rt.Run(context.Background(), actionruntime.Version{VersionID: "probe", Code: "exports.onExecuteCustomTokenExchange = async () => {};"}, nil, nil); err != nil {
		var re *actionruntime.Error
		if errors.As(err, &re) && re.Kind == actionruntime.Unavailable {
			t.Skipf("this test runs an action's code: %s", re.Message)
		}
	}
	tn := &tenant.Tenant{St: tenant.NewStore(), Host: srv.Listener.Addr().String(), Name: "alone", BuildDelay: time.Millisecond, Installer: in}
	s, err := New(tn, rt, Options{TokenLifetime: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	s.Routes(mux)

	tn.St.ResourceServers["rs_1"] = &tenant.ResourceServer{ID: "rs_1", Identifier: "https://api.example.com/", TokenLifetime: 600, SigningAlg: "RS256", SkipConsent: true}
	a := &tenant.Action{Name: "exchange", Triggers: []tenant.Trigger{{ID: "custom-token-exchange", Version: "v1"}}, Runtime: "node22",
		Code: `exports.onExecuteCustomTokenExchange = async (event, api) => {
  api.authentication.setUserByConnection("Username-Password-Authentication",
    { user_id: event.transaction.subject_token, email: event.transaction.subject_token + "@example.com" },
    { creationBehavior: "create_if_not_exists", updateBehavior: "none" });
};`, Dependencies: []tenant.Dependency{}, Secrets: []tenant.Secret{}, Versions: []*tenant.ActionVersion{}}
	tn.AddAction(a, time.Now().Add(-time.Hour), true)
	a.Settle(time.Now())
	tn.St.Profiles["tep_1"] = &tenant.Profile{ID: "tep_1", Name: "legacy", Type: "custom_authentication", SubjectTokenType: "urn:acme:legacy", ActionID: a.ID}
	c := tn.NewClient("regular_web")
	c.Fields["oidc_conformant"] = wire.Raw(true)
	c.Fields["token_exchange"] = wire.Raw(map[string]any{"allow_any_profile_of_type": []string{"custom_authentication"}})
	tn.St.Clients[c.ID] = c
	tn.SeedDefaultConnection() // a fresh tenant's database connection, enabled for its clients

	resp, err := http.PostForm(srv.URL+"/oauth/token", url.Values{"grant_type": {TokenExchangeGrant}, "client_id": {c.ID},
		"client_secret": {c.Secret}, "subject_token": {"ada"}, "subject_token_type": {"urn:acme:legacy"}, "audience": {"https://api.example.com/"}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, out)
	}
	key, kid := s.Key()
	tok, err := jwt.Parse(out["access_token"].(string), func(*jwt.Token) (any, error) { return &key.PublicKey, nil }, jwt.WithValidMethods([]string{"RS256"}))
	if err != nil || tok.Header["kid"] != kid {
		t.Fatalf("the access token: %v %v", err, tok.Header)
	}
	tn.Lock()
	u := tn.St.Users["auth0|ada"]
	tn.Unlock()
	if sub, _ := tok.Claims.GetSubject(); sub != "auth0|ada" || u == nil || u.Email != "ada@example.com" {
		t.Fatalf("sub %q, user %+v", sub, u)
	}
}
