package emulator

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func resetOf(t *testing.T, r reply) int64 {
	t.Helper()
	n, err := strconv.ParseInt(r.header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil {
		t.Fatalf("X-RateLimit-Reset %q", r.header.Get("X-RateLimit-Reset"))
	}
	return n
}

func TestRateLimit_fixedWindow(t *testing.T) {
	h := start(t, Options{RateLimitBurst: 3, RateLimitWindow: 400 * time.Millisecond})
	tok := h.admin() // the window's first request
	begin := time.Now()
	a := h.call(tok, "GET", "/api/v2/roles", nil)
	h.expect(h.call(tok, "GET", "/api/v2/roles", nil), 200)
	b := h.call(tok, "GET", "/api/v2/roles", nil)
	h.expect(a, 200)
	h.expect(b, 429, "Global limit has been reached")
	if a.header.Get("X-RateLimit-Limit") != "3" || a.header.Get("X-RateLimit-Remaining") != "1" || b.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("headers %v / %v", a.header, b.header)
	}
	// One window, one Reset: its end, rounded up to the second.
	if resetOf(t, a) != resetOf(t, b) || resetOf(t, a) < begin.Unix() || resetOf(t, a) > begin.Add(2*time.Second).Unix() {
		t.Fatalf("resets %d %d at %d", resetOf(t, a), resetOf(t, b), begin.Unix())
	}
	// At the window's end every request comes back at once.
	time.Sleep(450 * time.Millisecond)
	for want := 2; want >= 0; want-- {
		r := h.call(tok, "GET", "/api/v2/roles", nil)
		h.expect(r, 200)
		if r.header.Get("X-RateLimit-Remaining") != strconv.Itoa(want) {
			t.Fatalf("remaining %s, want %d", r.header.Get("X-RateLimit-Remaining"), want)
		}
	}
	h.expect(h.call(tok, "GET", "/api/v2/roles", nil), 429)

	// Without a burst, the limit is the rate times the window.
	h2 := start(t, Options{RateLimitRPS: 5, RateLimitWindow: 2 * time.Second})
	h2.expect(h2.call("", "GET", "/api/v2/roles", nil), 401)
	if r := h2.call("", "GET", "/api/v2/roles", nil); r.header.Get("X-RateLimit-Limit") != "10" || r.header.Get("X-RateLimit-Remaining") != "8" {
		t.Fatalf("headers %v", r.header)
	}
}

func TestRateLimit_clockSkew(t *testing.T) {
	const skew = -90 * time.Minute
	h := start(t, Options{RateLimitRPS: 1, RateLimitBurst: 2, ClockSkew: skew})
	tok := h.admin()
	r := h.call(tok, "GET", "/api/v2/roles", nil)
	h.expect(r, 200)
	now := time.Now()
	date, err := http.ParseTime(r.header.Get("Date"))
	if err != nil {
		t.Fatal(err)
	}
	if d := date.Sub(now.Add(skew)); d < -3*time.Second || d > 3*time.Second {
		t.Fatalf("Date %v, want about %v", date, now.Add(skew))
	}
	// Reset is on the skewed clock: a couple of seconds after Date.
	if d := resetOf(t, r) - date.Unix(); d < 0 || d > 3 {
		t.Fatalf("reset %d is %ds from Date %d", resetOf(t, r), d, date.Unix())
	}
	// The limit itself runs on real time.
	h.expect(h.call(tok, "GET", "/api/v2/roles", nil), 429)
	time.Sleep(1100 * time.Millisecond)
	h.expect(h.call(tok, "GET", "/api/v2/roles", nil), 200)

	// Every answer carries a Date on that clock: token, admin, errors.
	for _, r := range []reply{
		h.call("", "GET", "/.well-known/jwks.json", nil),
		h.call("", "GET", "/__emulator/stats", nil),
		h.call("", "GET", "/api/v2/roles", nil),
		h.call("", "GET", "/nope", nil),
		h.raw("GET", "/api/v2//x", nil),
	} {
		date, err := http.ParseTime(r.header.Get("Date"))
		if d := date.Sub(time.Now().Add(skew)); err != nil || d < -3*time.Second || d > 3*time.Second {
			t.Fatalf("%d answer: Date %q", r.status, r.header.Get("Date"))
		}
	}
	// No skew: Date is now.
	h0 := start(t, Options{})
	date, _ = http.ParseTime(h0.call("", "GET", "/api/v2/roles", nil).header.Get("Date"))
	if d := time.Since(date); d < -3*time.Second || d > 3*time.Second {
		t.Fatalf("Date %v without skew", date)
	}
}

func TestRateLimit_omittedHeaders(t *testing.T) {
	for _, tc := range []struct {
		omit []string
		want map[string]bool
	}{
		{[]string{"X-RateLimit-Limit"}, map[string]bool{"X-RateLimit-Remaining": true, "X-RateLimit-Reset": true}},
		{[]string{"x-ratelimit-reset", "X-RATELIMIT-REMAINING"}, map[string]bool{"X-RateLimit-Limit": true}},
		{[]string{"all"}, map[string]bool{}},
	} {
		h := start(t, Options{RateLimitRPS: 1, RateLimitBurst: 1, OmitRateLimitHeaders: tc.omit})
		first := h.call("", "GET", "/api/v2/roles", nil)
		second := h.call("", "GET", "/api/v2/roles", nil)
		h.expect(second, 429, "Global limit has been reached") // the limit still applies
		for _, r := range []reply{first, second} {
			for _, name := range rateLimitHeaderNames {
				if got := r.header.Get(name) != ""; got != tc.want[name] {
					t.Errorf("omit %v: %s present=%v", tc.omit, name, got)
				}
			}
		}
	}
	if s, err := Start(Options{OmitRateLimitHeaders: []string{"Retry-After"}}); err == nil {
		s.Close()
		t.Fatal("an unknown header name was accepted")
	}
}
