package emulator

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/oauth"
)

// The exchange's measures (reported, never asserted): the first exchange
// after a deploy, and the build of an action with one real dependency,
// before and after the set is cached (the runtime's own measures are in
// exchange_runtime_bench_test.go). Run with -benchtime=1x:
//
//	go test -run '^$' -bench 'FirstAfterDeploy|BuildWithDependency' -benchtime=1x ./internal/emulator

// benchTenant is an emulator with an API, a client allowed to exchange,
// and a way to deploy custom-token-exchange actions, for benchmarks.
type benchTenant struct {
	tb     testing.TB
	s      *Server
	tok    string
	client string
	secret string
}

func newBenchTenant(tb testing.TB, o Options) *benchTenant {
	tb.Helper()
	o.ExchangeRateLimit = -1 // the benchmarks measure the exchange, not its limit
	s, err := Start(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	bt := &benchTenant{tb: tb, s: s}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {s.ClientID()}, "client_secret": {s.ClientSecret()}, "audience": {s.Audience()}}
	bt.tok = bt.post("/oauth/token", "", form)["access_token"].(string)
	bt.call("POST", "/api/v2/resource-servers", `{"identifier":"`+ordersAPI+`","skip_consent_for_verifiable_first_party_clients":true,"scopes":[{"value":"read:orders"}]}`)
	c := bt.call("POST", "/api/v2/clients", `{"name":"app","is_first_party":true,"oidc_conformant":true,"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`)
	bt.client, bt.secret = c["client_id"].(string), c["client_secret"].(string)
	return bt
}

func (bt *benchTenant) call(method, path, body string) map[string]any {
	bt.tb.Helper()
	req, _ := http.NewRequest(method, bt.s.Domain()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+bt.tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		bt.tb.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(b, &out)
	if resp.StatusCode >= 300 {
		bt.tb.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	return out
}

func (bt *benchTenant) post(path, _ string, form url.Values) map[string]any {
	bt.tb.Helper()
	resp, err := http.PostForm(bt.s.Domain()+path, form)
	if err != nil {
		bt.tb.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != 200 {
		bt.tb.Fatalf("POST %s: %d %v", path, resp.StatusCode, out)
	}
	return out
}

// action creates a custom-token-exchange action and returns its id once
// its build is over (built or failed) and how long that took.
func (bt *benchTenant) action(body, deps string, deploy bool) (string, time.Duration, string) {
	bt.tb.Helper()
	code, _ := json.Marshal(actionCode(body))
	start := time.Now()
	a := bt.call("POST", actionsPath, fmt.Sprintf(`{"name":"bench","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":%s,"dependencies":%s,"deploy":%v}`, code, deps, deploy))
	id := a["id"].(string)
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		a = bt.call("GET", actionsPath+"/"+id, "")
		if st := a["status"]; st == "built" || st == "failed" {
			if deploy && st == "built" && a["all_changes_deployed"] != true {
				continue
			}
			return id, time.Since(start), st.(string)
		}
	}
	bt.tb.Fatalf("action %s: no end to its build", id)
	return "", 0, ""
}

func (bt *benchTenant) profile(subjectTokenType, actionID string) {
	bt.call("POST", "/api/v2/token-exchange-profiles", fmt.Sprintf(`{"name":"bench","subject_token_type":%q,"action_id":%q,"type":"custom_authentication"}`, subjectTokenType, actionID))
}

func (bt *benchTenant) exchange(subjectTokenType, subject string) time.Duration {
	bt.tb.Helper()
	start := time.Now()
	bt.post("/oauth/token", "", url.Values{
		"grant_type": {oauth.TokenExchangeGrant}, "client_id": {bt.client}, "client_secret": {bt.secret},
		"subject_token": {subject}, "subject_token_type": {subjectTokenType}, "audience": {ordersAPI}, "scope": {"read:orders"},
	})
	return time.Since(start)
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkExchangeFirstAfterDeploy: the first exchange after each of ten
// deploys, which starts the new version's worker (no dependencies, so no
// npm install in it).
func BenchmarkExchangeFirstAfterDeploy(b *testing.B) {
	requireNode(b)
	bt := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond})
	for b.Loop() {
		var first []time.Duration
		for i := range 10 {
			id, _, _ := bt.action(createLegacy, "[]", true)
			typ := fmt.Sprintf("urn:acme:bench-%d-%d", time.Now().UnixNano(), i)
			bt.profile(typ, id)
			first = append(first, bt.exchange(typ, fmt.Sprintf("first-%d-%d", time.Now().UnixNano(), i)))
		}
		b.ReportMetric(ms(percentile(first, 0.50)), "p50-ms")
		b.ReportMetric(ms(slices.Max(first)), "max-ms")
	}
}

// BenchmarkBuildWithDependency: the build of an action with one real
// dependency (jose 5.9.6): cold (an empty package cache and an empty npm
// download cache), with npm's download cache warm, and with the set in the
// package cache.
func BenchmarkBuildWithDependency(b *testing.B) {
	emutest.RequireNpm(b)
	deps := `[{"name":"jose","version":"5.9.6"}]`
	for b.Loop() {
		b.Setenv("NPM_CONFIG_CACHE", b.TempDir())
		bt := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond, PackageCache: b.TempDir()})
		_, cold, st := bt.action("", deps, false)
		if st != "built" {
			b.Fatalf("cold build %s", st)
		}
		bt2 := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond, PackageCache: b.TempDir()})
		_, npmWarm, _ := bt2.action("", deps, false)
		_, cached, _ := bt2.action("", deps, false)
		_, none, _ := bt2.action("", "[]", false)
		b.ReportMetric(ms(cold), "cold-ms")
		b.ReportMetric(ms(npmWarm), "npm-cache-warm-ms")
		b.ReportMetric(ms(cached), "cached-ms")
		b.ReportMetric(ms(none), "no-deps-ms")
	}
}
