package oauth

import (
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

func refreshServer(set refreshSettings) (*Server, *exchangeClient, func(now time.Time, old *refreshRecord) string) {
	s := &Server{Tenant: &tenant.Tenant{St: tenant.NewStore()}}
	c := &exchangeClient{id: "app", refresh: set}
	issue := func(now time.Time, old *refreshRecord) string {
		req := &exchangeRequest{client: c, rs: &tenant.ResourceServer{Identifier: "https://api/"}, refreshing: old}
		return s.refreshTokenFor(req, &outcome{user: &tenant.User{UserID: "auth0|u"}}, &postLoginOutcome{}, []string{"offline_access"}, now)
	}
	return s, c, issue
}

// Expiring refresh tokens end at their absolute lifetime, counted from the
// first token, or after their idle lifetime unused; the infinite flags and
// non-expiring turn that off.
func TestRefresh_expiry(t *testing.T) {
	t0 := time.Now()
	s, c, issue := refreshServer(refreshSettings{Expiration: "expiring", Lifetime: 100, Idle: 30})
	tok := issue(t0, nil)
	for _, at := range []int{20, 45, 70, 99} { // each use within the idle lifetime
		if _, f, why := s.useRefreshToken(c, tok, t0.Add(time.Duration(at)*time.Second)); f != nil {
			t.Fatalf("at %ds: %s", at, why)
		}
	}
	if _, f, _ := s.useRefreshToken(c, tok, t0.Add(101*time.Second)); f == nil || f.code != "invalid_grant" || f.status != 403 {
		t.Fatalf("past the absolute lifetime: %+v", f)
	}
	tok = issue(t0, nil)
	if _, f, _ := s.useRefreshToken(c, tok, t0.Add(31*time.Second)); f == nil {
		t.Fatal("used past its idle lifetime")
	}
	for _, set := range []refreshSettings{
		{Expiration: "expiring", Lifetime: 100, Idle: 30, InfiniteLifetime: true, InfiniteIdle: true},
		{Expiration: "non-expiring", Lifetime: 100, Idle: 30},
	} {
		s, c, issue := refreshServer(set)
		if _, f, why := s.useRefreshToken(c, issue(t0, nil), t0.Add(1000*time.Second)); f != nil {
			t.Fatalf("%+v: %s", set, why)
		}
	}
	if _, f, _ := s.useRefreshToken(&exchangeClient{id: "other"}, issue(t0, nil), t0); f == nil {
		t.Fatal("another client's refresh token was taken")
	}
}

// A rotated refresh token works within the leeway; used after it, its
// whole family is revoked, the newest token too.
func TestRefresh_rotationAndReuse(t *testing.T) {
	t0 := time.Now()
	s, c, issue := refreshServer(refreshSettings{Rotation: "rotating", Expiration: "expiring", Lifetime: 1000, Idle: 1000, Leeway: 5})
	first := issue(t0, nil)
	rec, f, _ := s.useRefreshToken(c, first, t0.Add(time.Second))
	if f != nil {
		t.Fatal(f)
	}
	second := issue(t0.Add(time.Second), rec)
	if second == "" || second == first {
		t.Fatal("no new refresh token on rotation")
	}
	if _, f, _ := s.useRefreshToken(c, first, t0.Add(5*time.Second)); f != nil {
		t.Fatal("the retired token within the leeway was refused")
	}
	if _, f, _ := s.useRefreshToken(c, first, t0.Add(6*time.Second)); f == nil {
		t.Fatal("the retired token past the leeway was taken")
	}
	if _, f, _ := s.useRefreshToken(c, second, t0.Add(7*time.Second)); f == nil {
		t.Fatal("the family was not revoked")
	}
	// A non-rotating client's refresh keeps the token in use.
	s, c, issue = refreshServer(refreshSettings{Rotation: "non-rotating", Expiration: "non-expiring"})
	tok := issue(t0, nil)
	rec, _, _ = s.useRefreshToken(c, tok, t0)
	if again := issue(t0, rec); again != "" {
		t.Fatal("a non-rotating refresh issued a new token")
	}
	if _, f, _ := s.useRefreshToken(c, tok, t0.Add(time.Hour)); f != nil {
		t.Fatal(f)
	}
}
