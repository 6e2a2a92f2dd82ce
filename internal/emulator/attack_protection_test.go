package emulator

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/oauth"
)

const ipThrottling = "/api/v2/attack-protection/suspicious-ip-throttling"

// The setting shows the platform's defaults (the flags over the exchange
// stage), PATCH checks and merges it, and the routes need their scopes.
func TestIPThrottling_routes(t *testing.T) {
	h := start(t, Options{ExchangeThrottle: ExchangeThrottle{MaxAttempts: 7}})
	tok := h.admin()
	h.expect(h.call(tok, "GET", ipThrottling, nil), 200, `"enabled":true`, `"shields":["admin_notification","block"]`, `"allowlist":[]`,
		`"pre-custom-token-exchange":{"max_attempts":7,"rate":600000}`, `"pre-login":{"max_attempts":100,"rate":864000}`)
	for _, bad := range []struct{ body, says string }{
		{`{"shields":["block","shout"]}`, `No enum match for: \"shout\"`},
		{`{"allowlist":["not-an-ip"]}`, "allowlist[0]"},
		{`{"stage":{"pre-custom-token-exchange":{"max_attempts":0}}}`, "max_attempts"},
		{`{"stage":{"post-login":{"max_attempts":1}}}`, "Additional properties not allowed: post-login"},
		{`{"enabled":"yes"}`, "enabled"},
		{`{"mode":"strict"}`, "Additional properties not allowed: mode"},
	} {
		h.expect(h.call(tok, "PATCH", ipThrottling, bad.body), 400, bad.says)
	}
	h.expect(h.call(tok, "PATCH", ipThrottling, `{"allowlist":["10.0.0.0/8","192.0.2.1"],"stage":{"pre-custom-token-exchange":{"rate":1000}}}`), 200,
		`"allowlist":["10.0.0.0/8","192.0.2.1"]`, `"pre-custom-token-exchange":{"max_attempts":7,"rate":1000}`, `"enabled":true`)
	h.s.AddClient(Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"read:attack_protection"}})
	reader := h.tokenFor("reader", "reader-secret")
	h.expect(h.call(reader, "GET", ipThrottling, nil), 200, `"rate":1000`)
	h.expect(h.call(reader, "PATCH", ipThrottling, `{"enabled":false}`), 403, "update:attack_protection")
}

// The pre-custom-token-exchange stage drives the exchange's throttle: its
// max_attempts, an allowlisted address, and the setting turned off.
func TestExchange_throttleSettingDrivesTheExchange(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  if (event.transaction.subject_token === "forged") { api.access.rejectInvalidSubjectToken("bad token"); return; }
  `+createLegacy, "", "")
	x.expect(x.call(x.tok, "PATCH", ipThrottling, `{"stage":{"pre-custom-token-exchange":{"max_attempts":2,"rate":3600000}}}`), 200)
	for range 2 {
		if status, _ := x.exchange("forged"); status != 400 {
			t.Fatal(status)
		}
	}
	if status, out := x.exchange("t1"); status != 429 || out["error"] != "too_many_attempts" {
		t.Fatalf("after 2 rejected tokens: %d %v", status, out)
	}
	x.expect(x.call(x.tok, "PATCH", ipThrottling, `{"allowlist":["127.0.0.0/8"]}`), 200)
	if status, out := x.exchange("t1"); status != 200 {
		t.Fatalf("an allowlisted address: %d %v", status, out)
	}
	x.expect(x.call(x.tok, "PATCH", ipThrottling, `{"allowlist":[]}`), 200)
	if status, _ := x.exchange("t1"); status != 429 {
		t.Fatalf("off the allowlist: %d", status)
	}
	x.expect(x.call(x.tok, "PATCH", ipThrottling, `{"shields":["admin_notification"]}`), 200)
	if status, _ := x.exchange("t1"); status != 200 {
		t.Fatalf("without the block shield: %d", status)
	}
	x.expect(x.call(x.tok, "PATCH", ipThrottling, `{"shields":["block"],"enabled":false}`), 200)
	if status, _ := x.exchange("t1"); status != 200 {
		t.Fatalf("disabled: %d", status)
	}
}

// The exchange's own rate limit: past the bucket, 429 before anything else
// (here before the client is even authenticated), with Retry-After; the
// limit is on by default at the platform's Enterprise figure.
func TestExchange_rateLimit(t *testing.T) {
	if got := ExchangeRate(0).perSecond(); got != 10 || ExchangeRate(-1).perSecond() != -1 || ExchangeRate(3).perSecond() != 3 {
		t.Fatalf("the default limit: %v", got)
	}
	h := start(t, Options{ExchangeRateLimit: 0.001, ExchangeRateBurst: 2})
	post := func() *http.Response {
		resp, err := http.PostForm(h.s.Domain()+"/oauth/token", url.Values{"grant_type": {oauth.TokenExchangeGrant}, "client_id": {"nobody"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for range 2 {
		if resp := post(); resp.StatusCode != 401 {
			t.Fatalf("within the limit: %d", resp.StatusCode)
		}
	}
	if resp := post(); resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("past the limit: %d %v", resp.StatusCode, resp.Header)
	}
	// Other grants are not counted.
	h.admin()
}
