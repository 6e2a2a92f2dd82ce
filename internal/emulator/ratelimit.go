package emulator

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The rate limit: X-RateLimit-Limit, -Remaining and -Reset (epoch seconds)
// on every answer, 429 when exhausted (reference §0.7). Tenants differ in
// how they count and in which headers they send; the Options choose.

// limiter counts requests; reset is when the requests used so far are all
// given back. A zero limit means no limit.
type limiter interface {
	take(now time.Time) (limit, remaining int, reset time.Time, ok bool)
}

// newLimiter is a fixed window when window > 0, else a token bucket.
func newLimiter(rps float64, burst int, window time.Duration) limiter {
	if window > 0 {
		if burst <= 0 {
			burst = int(math.Ceil(rps * window.Seconds()))
		}
		return &fixedWindow{limit: burst, length: window}
	}
	b := newBucket(rps, burst)
	return &b
}

// bucket is a token bucket; its reset is when it is full again.
type bucket struct {
	rps    float64
	burst  int
	tokens float64
	last   time.Time
}

func newBucket(rps float64, burst int) bucket {
	if burst <= 0 {
		burst = max(1, int(rps))
	}
	return bucket{rps: rps, burst: burst, tokens: float64(burst)}
}

func (b *bucket) take(now time.Time) (limit, remaining int, reset time.Time, ok bool) {
	if b.rps <= 0 {
		return 0, 0, time.Time{}, true
	}
	if !b.last.IsZero() {
		b.tokens = min(float64(b.burst), b.tokens+now.Sub(b.last).Seconds()*b.rps)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		ok = true
	}
	full := now.Add(time.Duration((float64(b.burst) - b.tokens) / b.rps * float64(time.Second)))
	return b.burst, int(b.tokens), full, ok
}

// fixedWindow allows limit requests per window; all come back at its end.
type fixedWindow struct {
	limit  int
	length time.Duration
	start  time.Time
	used   int
}

func (w *fixedWindow) take(now time.Time) (limit, remaining int, reset time.Time, ok bool) {
	if w.limit <= 0 {
		return 0, 0, time.Time{}, true
	}
	if w.start.IsZero() || !now.Before(w.start.Add(w.length)) {
		w.start, w.used = now, 0
	}
	if w.used < w.limit {
		w.used++
		ok = true
	}
	return w.limit, w.limit - w.used, w.start.Add(w.length), ok
}

// clock is the emulator's time as its answers show it.
func (s *Server) clock(now time.Time) time.Time { return now.Add(s.opts.ClockSkew).UTC() }

// rateLimitHeaders sets the headers not omitted; Reset is rounded up to
// the second, so that waiting until it is always long enough.
func (s *Server) rateLimitHeaders(h http.Header, limit, remaining int, reset time.Time) {
	at := s.clock(reset)
	secs := at.Unix()
	if at.After(time.Unix(secs, 0)) {
		secs++
	}
	for _, kv := range []struct{ k, v string }{
		{"X-RateLimit-Limit", strconv.Itoa(limit)},
		{"X-RateLimit-Remaining", strconv.Itoa(remaining)},
		{"X-RateLimit-Reset", strconv.FormatInt(secs, 10)},
	} {
		if !s.omit[kv.k] {
			h.Set(kv.k, kv.v)
		}
	}
}

var rateLimitHeaderNames = []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}

// omitted reads OmitRateLimitHeaders into canonical names.
func omitted(names []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
		case strings.EqualFold(n, "all"):
			for _, h := range rateLimitHeaderNames {
				out[h] = true
			}
		default:
			known := false
			for _, h := range rateLimitHeaderNames {
				if strings.EqualFold(n, h) {
					out[h], known = true, true
				}
			}
			if !known {
				return nil, fmt.Errorf("omit rate-limit header %q: want X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset or all", n)
			}
		}
	}
	return out, nil
}
