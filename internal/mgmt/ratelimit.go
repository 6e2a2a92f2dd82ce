package mgmt

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit is what the X-RateLimit-* headers of one answer said.
type RateLimit struct {
	Known     bool
	Limit     int
	Remaining int
	// Reset is when the bucket refills (the header is Unix epoch seconds).
	Reset time.Time
}

func parseRateLimit(h http.Header) RateLimit {
	limit, errL := strconv.Atoi(h.Get("X-RateLimit-Limit"))
	remaining, errR := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	if errR != nil {
		return RateLimit{}
	}
	rl := RateLimit{Known: true, Remaining: remaining}
	if errL == nil {
		rl.Limit = limit
	}
	if reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil && reset > 0 {
		rl.Reset = time.Unix(reset, 0)
	}
	return rl
}

// retryAfter reads Retry-After as seconds or an HTTP date; 0 when absent.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return t.Sub(now)
	}
	return 0
}

// pacer holds every request of the process back while the tenant's budget is
// spent, and optionally caps the request rate.
type pacer struct {
	limiter *rate.Limiter // nil: no fixed cap

	mu     sync.Mutex
	until  time.Time // no request before this instant
	lastRL RateLimit
}

func newPacer(rps float64) *pacer {
	p := &pacer{}
	if rps > 0 {
		burst := max(1, int(rps))
		p.limiter = rate.NewLimiter(rate.Limit(rps), burst)
	}
	return p
}

// wait blocks until a request may be sent, or ctx ends.
func (p *pacer) wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		d := time.Until(p.until)
		p.mu.Unlock()
		if d <= 0 {
			break
		}
		if err := sleep(ctx, d); err != nil {
			return err
		}
	}
	if p.limiter != nil {
		return p.limiter.Wait(ctx)
	}
	return ctx.Err()
}

// holdUntil makes every caller of wait sleep until t.
func (p *pacer) holdUntil(t time.Time) {
	p.mu.Lock()
	if t.After(p.until) {
		p.until = t
	}
	p.mu.Unlock()
}

// observe records an answer's headers; an exhausted budget holds everyone
// until the reset instead of letting each goroutine collect its own 429.
func (p *pacer) observe(rl RateLimit) {
	if !rl.Known {
		return
	}
	p.mu.Lock()
	p.lastRL = rl
	p.mu.Unlock()
	if rl.Remaining <= 0 && !rl.Reset.IsZero() && rl.Reset.After(time.Now()) {
		p.holdUntil(rl.Reset)
	}
}

func (p *pacer) last() RateLimit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastRL
}
