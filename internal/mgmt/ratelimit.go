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
// spent, and optionally caps the request rate. In automatic mode it keeps the
// budget of the current rate-limit window (what the last answer said was
// remaining, less the requests sent since). While the budget lasts requests
// go at once; once it is spent they go one by one at the tenant's refill
// rate, so that goroutines neither collect a 429 each nor sit idle until the
// whole bucket is full again.
type pacer struct {
	limiter *rate.Limiter // nil: no fixed cap

	mu       sync.Mutex
	until    time.Time // no request before this instant
	budget   int       // requests left in the window ending at reset
	reset    time.Time // zero: no window known
	inflight int
	lastRL   RateLimit
	// refill is the largest lower bound on the tenant's refill rate seen:
	// an answer with limit L, remaining r and reset R (the bucket is full by
	// R) proves the bucket refills at least (L-r)/(R-now) per second.
	refill float64
	// fixedWindow is set when more than 2% of requests (counting at least
	// 100) met a 429: the tenant's budget evidently does not refill within the
	// window, so a spent budget waits for the reset instead of being paced.
	fixedWindow  bool
	sent, denied int
	next         time.Time // the next paced slot while the budget is spent
	answered     bool      // an answer has arrived, with rate-limit headers or not
}

func newPacer(rps float64) *pacer {
	p := &pacer{}
	if rps > 0 {
		burst := max(1, int(rps))
		p.limiter = rate.NewLimiter(rate.Limit(rps), burst)
	}
	return p
}

// wait blocks until a request may be sent, or ctx ends, and counts the
// request against the window's budget.
func (p *pacer) wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		now := time.Now()
		if !p.reset.IsZero() && !now.Before(p.reset) {
			// The window is over, so the bucket is full: Limit requests may go
			// (less those in flight) until an answer tells the new window.
			p.budget = p.lastRL.Limit - p.inflight
			p.reset = now.Add(time.Second)
			p.next = time.Time{}
		}
		if hold := p.until.Sub(now); hold > 0 {
			p.mu.Unlock()
			if err := sleep(ctx, hold); err != nil {
				return err
			}
			continue
		}
		var d time.Duration
		switch {
		case p.reset.IsZero() && p.answered:
			// Answers carry no rate-limit window: nothing to pace by.
		case p.reset.IsZero() && p.inflight > 0:
			// No answer has described the rate limit yet: one request at
			// a time until one does, so a small bucket is not overrun.
			p.mu.Unlock()
			if err := sleep(ctx, 5*time.Millisecond); err != nil {
				return err
			}
			continue
		case p.reset.IsZero() || p.budget > 0:
			p.budget--
		case p.refill <= 0 || p.fixedWindow:
			// Spent, and no refill within the window known: wait for the reset.
			d = p.reset.Sub(now)
			p.mu.Unlock()
			if err := sleep(ctx, d); err != nil {
				return err
			}
			continue
		default:
			// Spent: take the next slot of the refill rate.
			// The budget says the bucket is empty, so the earliest token is
			// one interval away.
			interval := time.Duration(float64(time.Second) / p.refill)
			slot := p.next
			if first := now.Add(interval); slot.Before(first) && (slot.IsZero() || slot.Before(now)) {
				slot = first
			}
			p.next = slot.Add(interval)
			d = slot.Sub(now)
		}
		p.inflight++
		p.sent++
		p.mu.Unlock()
		if err := sleep(ctx, d); err != nil {
			p.done()
			return err
		}
		break
	}
	if p.limiter != nil {
		if err := p.limiter.Wait(ctx); err != nil {
			p.done()
			return err
		}
	}
	return nil
}

// done marks the end of a request that wait let through.
func (p *pacer) done() {
	p.mu.Lock()
	p.inflight--
	p.mu.Unlock()
}

// holdUntil makes every caller of wait sleep until t; it follows a 429.
func (p *pacer) holdUntil(t time.Time) {
	p.mu.Lock()
	p.denied++
	p.fixedWindow = p.fixedWindow || p.denied*50 > max(p.sent, 100)
	if t.After(p.until) {
		p.until = t
	}
	p.mu.Unlock()
}

// observe records an answer and its rate-limit headers. The budget becomes what the
// tenant says remains, less the requests still in flight (they may not have
// been counted yet), and never grows within a window.
func (p *pacer) observe(rl RateLimit) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answered = true
	if !rl.Known {
		return
	}
	p.lastRL = rl
	if rl.Reset.IsZero() {
		return
	}
	now := time.Now()
	if rl.Limit > rl.Remaining && rl.Reset.After(now) {
		p.refill = max(p.refill, float64(rl.Limit-rl.Remaining)/rl.Reset.Sub(now).Seconds())
	}
	left := rl.Remaining - p.inflight
	switch {
	case p.reset.IsZero() || rl.Reset.After(p.reset):
		p.reset, p.budget = rl.Reset, left
	case left < p.budget:
		p.budget = left
	}
	if p.budget <= 0 && p.refill > 0 {
		// The bucket is empty now: its next token is one interval away.
		if first := now.Add(time.Duration(float64(time.Second) / p.refill)); p.next.Before(first) {
			p.next = first
		}
	}
}

func (p *pacer) last() RateLimit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastRL
}
