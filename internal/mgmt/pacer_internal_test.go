package mgmt

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestPacer_rateEstimateDecays: a single high sample sets the pace only for
// rateWindow, and every estimate stays within bounds.
func TestPacer_rateEstimateDecays(t *testing.T) {
	p := newPacer(0)
	now := time.Now()
	p.samples = []rateSample{{at: now.Add(-rateWindow - time.Second), rate: 500}, {at: now.Add(-time.Second), rate: 20}}
	if r := p.rate(now); r != 20 {
		t.Fatalf("rate %v: an expired sample still counts", r)
	}
	if r := p.rate(now.Add(rateWindow + 2*time.Second)); r != 0 {
		t.Fatalf("rate %v after every sample expired", r)
	}
}

// TestPacer_resetSamplesAreLowerBoundsOnTheServerClock: the estimate from
// one answer uses the server's Date, not ours, and whole seconds.
func TestPacer_resetSamplesAreLowerBoundsOnTheServerClock(t *testing.T) {
	server := time.Now().Add(3 * time.Hour).Truncate(time.Second) // a clock three hours ahead
	h := http.Header{}
	h.Set("Date", server.UTC().Format(http.TimeFormat))
	h.Set("X-RateLimit-Limit", "20")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatInt(server.Unix()+2, 10))
	p := newPacer(0)
	p.observe(parseRateLimit(h), 200)
	r := p.rate(time.Now())
	if r != 10 {
		t.Fatalf("rate %v, want 20 tokens over the 2 s the server's clock shows", r)
	}
	// Our clock would have said the reset was three hours ago or, for a
	// clock behind, hours away: neither sets a wait.
	if d := parseRateLimit(h).untilReset(time.Now()); d != 2*time.Second {
		t.Fatalf("until reset %s", d)
	}
}
