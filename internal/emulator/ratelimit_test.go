package emulator

import (
	"fmt"
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
	// A window of a minute: the requests below are in one, however slowly
	// they come.
	h := start(t, Options{RateLimitBurst: 3, RateLimitWindow: time.Minute})
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
	if resetOf(t, a) != resetOf(t, b) || resetOf(t, a) < begin.Unix() || resetOf(t, a) > begin.Add(62*time.Second).Unix() {
		t.Fatalf("resets %d %d at %d", resetOf(t, a), resetOf(t, b), begin.Unix())
	}

	// At the window's end every request comes back at once. A short window
	// to wait for: the answers' Remaining say whether the requests after it
	// fell in one window, and a slow machine that let another begin among
	// them tries again.
	h = start(t, Options{RateLimitBurst: 3, RateLimitWindow: 300 * time.Millisecond})
	tok = h.admin()
	for attempt := 0; ; attempt++ {
		var last reply
		for i := 0; i < 10 && last.status != 429; i++ {
			last = h.call(tok, "GET", "/api/v2/roles", nil)
		}
		h.expect(last, 429)
		time.Sleep(time.Until(time.Unix(resetOf(t, last), 0))) // Reset is rounded up: the window is over
		oneWindow := true
		for want := 2; want >= 0; want-- {
			r := h.call(tok, "GET", "/api/v2/roles", nil)
			h.expect(r, 200)
			if got := r.header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(want) {
				oneWindow = false
				t.Logf("remaining %s, want %d: another window began among the requests", got, want)
				break
			}
		}
		if oneWindow {
			if r := h.call(tok, "GET", "/api/v2/roles", nil); r.status == 429 {
				break
			}
			t.Log("another window began before the fourth request")
		}
		if attempt == 5 {
			t.Fatal("no three requests in one window of 300ms after six tries")
		}
	}

	// Without a burst, the limit is the rate times the window.
	h2 := start(t, Options{RateLimitRPS: 5, RateLimitWindow: time.Minute})
	h2.expect(h2.call("", "GET", "/api/v2/roles", nil), 401)
	if r := h2.call("", "GET", "/api/v2/roles", nil); r.header.Get("X-RateLimit-Limit") != "300" || r.header.Get("X-RateLimit-Remaining") != "298" {
		t.Fatalf("headers %v", r.header)
	}
}

// within checks that date, as an answer's Date header (whole seconds) shows
// it, lies between before and after on the clock skewed by skew.
func within(t *testing.T, what string, date, before, after time.Time, skew time.Duration) {
	t.Helper()
	if date.Before(before.Add(skew).Truncate(time.Second)) || date.After(after.Add(skew)) {
		t.Fatalf("%s: Date %v, want between %v and %v", what, date, before.Add(skew), after.Add(skew))
	}
}

func TestRateLimit_clockSkew(t *testing.T) {
	const skew = -90 * time.Minute
	h := start(t, Options{RateLimitRPS: 1, RateLimitBurst: 2, ClockSkew: skew})
	tok := h.admin()
	before := time.Now()
	r := h.call(tok, "GET", "/api/v2/roles", nil)
	after := time.Now()
	h.expect(r, 200)
	date, err := http.ParseTime(r.header.Get("Date"))
	if err != nil {
		t.Fatal(err)
	}
	within(t, "the answer", date, before, after, skew)
	// Reset is on the skewed clock: a couple of seconds after Date.
	if d := resetOf(t, r) - date.Unix(); d < 0 || d > 3 {
		t.Fatalf("reset %d is %ds from Date %d", resetOf(t, r), d, date.Unix())
	}
	// The limit itself runs on real time: once the bucket is empty (a token
	// comes back each second, so a few more requests find it so), a token
	// is back a second later.
	last := r
	for i := 0; i < 10 && last.status != 429; i++ {
		last = h.call(tok, "GET", "/api/v2/roles", nil)
	}
	h.expect(last, 429)
	time.Sleep(1100 * time.Millisecond)
	h.expect(h.call(tok, "GET", "/api/v2/roles", nil), 200)

	// Every answer carries a Date on that clock: token, admin, errors.
	for _, call := range []func() reply{
		func() reply { return h.call("", "GET", "/.well-known/jwks.json", nil) },
		func() reply { return h.call("", "GET", "/__emulator/stats", nil) },
		func() reply { return h.call("", "GET", "/api/v2/roles", nil) },
		func() reply { return h.call("", "GET", "/nope", nil) },
		func() reply { return h.raw("GET", "/api/v2//x", nil) },
	} {
		before := time.Now()
		r := call()
		after := time.Now()
		date, err := http.ParseTime(r.header.Get("Date"))
		if err != nil {
			t.Fatalf("%d answer: Date %q", r.status, r.header.Get("Date"))
		}
		within(t, fmt.Sprintf("%d answer", r.status), date, before, after, skew)
	}
	// No skew: Date is now.
	h0 := start(t, Options{})
	before = time.Now()
	r = h0.call("", "GET", "/api/v2/roles", nil)
	after = time.Now()
	date, _ = http.ParseTime(r.header.Get("Date"))
	within(t, "without skew", date, before, after, 0)
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
