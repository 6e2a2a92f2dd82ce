package mgmt

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit is what the rate-limit headers of one answer said (reference
// §0.7). Values that are missing or make no sense are left at zero and
// Known says which are usable.
type RateLimit struct {
	// Known: Remaining is usable (the header was there and not negative).
	Known     bool
	Limit     int // 0 when missing or not positive
	Remaining int
	// Reset is when the bucket is full again (the header is Unix epoch
	// seconds); zero when missing or not a plausible time.
	Reset time.Time
	// Date is the server's clock when it answered (the Date header, whole
	// seconds); zero when missing.
	Date time.Time
}

func parseRateLimit(h http.Header) RateLimit {
	var rl RateLimit
	if remaining, err := strconv.Atoi(h.Get("X-RateLimit-Remaining")); err == nil && remaining >= 0 {
		rl.Known, rl.Remaining = true, remaining
	}
	if limit, err := strconv.Atoi(h.Get("X-RateLimit-Limit")); err == nil && limit > 0 {
		rl.Limit = limit
		rl.Remaining = min(rl.Remaining, limit)
	}
	if d, err := http.ParseTime(h.Get("Date")); err == nil {
		rl.Date = d
	}
	// A reset more than a day from either clock is not a reset time.
	if reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil && reset > 0 {
		t := time.Unix(reset, 0)
		now := rl.Date
		if now.IsZero() {
			now = time.Now()
		}
		if d := t.Sub(now); d > -24*time.Hour && d < 24*time.Hour {
			rl.Reset = t
		}
	}
	return rl
}

// untilReset is how long the server has until its reset, measured on the
// server's own clock when the answer carried one (so a server clock that
// differs from ours does not stretch or shrink waits), at least 0.
func (rl RateLimit) untilReset(received time.Time) time.Duration {
	if rl.Reset.IsZero() {
		return 0
	}
	now := received
	if !rl.Date.IsZero() {
		// Date is whole seconds, so the server's clock was up to a second later.
		now = rl.Date
	}
	return max(0, rl.Reset.Sub(now))
}

// retryAfter reads Retry-After as seconds or an HTTP date; 0 when absent.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if date, err := http.ParseTime(h.Get("Date")); err == nil {
			now = date // an HTTP date is on the server's clock
		}
		return max(0, t.Sub(now))
	}
	return 0
}

// Pacing limits. Every wait the pacer imposes is bounded by these, so no
// header, however odd or missing, can make a caller wait without end.
const (
	// rateWindow is how long a refill-rate estimate lasts: the pace follows
	// the largest estimate of the last rateWindow, so one lucky sample does
	// not set it for the life of the process.
	rateWindow = 10 * time.Second
	// minRate and maxRate bound the refill-rate estimate (requests/s).
	minRate = 0.2
	maxRate = 1000.0
	// probe is how often a caller tries again when the bucket is empty and
	// no refill rate is known.
	probe = time.Second
	// A 429 multiplies the share by shareBackoff (not below minShare); each
	// other answer adds shareRecovery, up to 1.
	shareBackoff  = 0.7
	minShare      = 0.1
	shareRecovery = 0.005
)

// pacer keeps every request of the process within the tenant's rate limit.
//
// It mirrors the tenant's token bucket (reference §0.7): tokens is what the
// bucket holds, as the newest answer said (X-RateLimit-Remaining, less the
// requests still unanswered, which it may not count yet), refilled
// at an estimated rate since. A request goes when a token is there and
// otherwise waits for the next one. The refill rate is estimated from the
// headers: an answer with limit L, remaining r and reset R (the bucket is
// full by R) proves a refill of at least (L-r)/(R-now) per second. The
// estimate is a lower bound, and the bucket's true content comes back with
// every answer, so the pace reaches the tenant's rate without crossing it.
//
// A 429 holds everyone briefly; a second 429 in a row holds them until the
// reset (the tenant's budget evidently does not refill within its window),
// and after a few of those the pacer treats the tenant as a fixed window:
// a spent budget waits for the reset.
type pacer struct {
	limiter *rate.Limiter // nil: no fixed cap

	mu       sync.Mutex
	synced   bool      // an answer has set tokens: syncR at syncAt
	syncR    float64   // the bucket's content an answer said, as accepted
	syncAt   time.Time // when that answer arrived
	tokens   float64   // the tenant's bucket, as of at
	at       time.Time // when tokens was last brought up to date
	capacity float64   // the bucket's size (X-RateLimit-Limit, or the most seen)
	samples  []rateSample
	reset    time.Time // fixed-window mode: when the window ends (our clock)
	until    time.Time // no request before this instant (after a 429)
	sent     time.Time // when the last request was let through
	inflight int
	known    bool // an answer carried rate-limit headers
	answered bool // an answer has arrived, with headers or not
	// denials counts 429s in a row; fixed counts the times a second 429 in
	// a row came, and fixedWindow is set once that has happened often.
	denials     int
	fixed       int
	fixedWindow bool
	lastRL      RateLimit
	// share is the part of the tenant's bucket and refill this process
	// counts on: several processes (parallel applies, other tools) share
	// one tenant's limit and each sees the others only through the
	// bucket's content. A 429 cuts it, each other answer restores a little
	// (additive increase, multiplicative decrease), so processes settle on
	// their shares instead of taking the same tokens.
	share float64
}

type rateSample struct {
	at   time.Time
	rate float64
}

func newPacer(rps float64) *pacer {
	p := &pacer{share: 1}
	if rps > 0 {
		p.limiter = rate.NewLimiter(rate.Limit(rps), max(1, int(rps)))
	}
	return p
}

// wait blocks until a request may be sent, or ctx ends. Each request it lets
// through ends with observe (an answer) or abandon (none).
func (p *pacer) wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		now := time.Now()
		d := p.until.Sub(now)
		switch {
		case d > 0:
		case !p.known && !p.answered && p.inflight > 0:
			// No answer has described the limit yet: one request at a time,
			// so a small bucket is not overrun.
			d = 5 * time.Millisecond
		case !p.known:
			// No rate-limit headers: nothing to pace by.
		default:
			d = p.take(now)
		}
		if d <= 0 {
			p.inflight++
			p.sent = now
			p.mu.Unlock()
			if p.limiter != nil {
				if err := p.limiter.Wait(ctx); err != nil {
					p.abandon()
					return err
				}
			}
			return nil
		}
		p.mu.Unlock()
		if err := sleep(ctx, d); err != nil {
			return err
		}
	}
}

// take takes a token and returns 0, or returns how long until one is there.
// When no refill can be predicted (no rate known, or a fixed window whose
// end is unknown), one request goes now and then to learn the bucket's
// content, so callers never wait on each other without end. The caller
// holds mu.
func (p *pacer) take(now time.Time) time.Duration {
	r := p.rate(now)
	switch {
	case p.fixedWindow && !p.reset.IsZero() && !now.Before(p.reset):
		// The window is over: the bucket is full again.
		p.tokens, p.reset = p.capacity-float64(p.inflight), time.Time{}
	case !p.fixedWindow && r > 0:
		p.tokens = min(p.capacity, p.tokens+now.Sub(p.at).Seconds()*r*p.share)
	}
	p.at = now
	var d time.Duration
	switch {
	case p.tokens >= 1:
		p.tokens--
		return 0
	case p.fixedWindow && !p.reset.IsZero():
		d = p.reset.Sub(now)
	case !p.fixedWindow && r > 0:
		d = time.Duration((1 - p.tokens) / (r * p.share) * float64(time.Second))
	case p.inflight == 0 && now.Sub(p.sent) >= probe:
		return 0
	default:
		d = probe - now.Sub(p.sent)
	}
	return min(max(d, time.Millisecond), probe)
}

// rate is the refill-rate estimate: the largest sample of the last
// rateWindow, or 0 when there is none. The caller holds mu.
func (p *pacer) rate(now time.Time) float64 {
	keep := p.samples[:0]
	best := 0.0
	for _, s := range p.samples {
		if now.Sub(s.at) <= rateWindow {
			keep = append(keep, s)
			best = max(best, s.rate)
		}
	}
	p.samples = keep
	return best
}

// abandon ends a request that was let through but never answered.
func (p *pacer) abandon() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight--
}

// observe records an answer, with its rate-limit headers.
func (p *pacer) observe(rl RateLimit, status int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	p.inflight--
	p.answered = true
	if status != http.StatusTooManyRequests {
		p.denials = 0
		p.share = min(1, p.share+shareRecovery)
	}
	if !rl.Known {
		return
	}
	p.lastRL = rl
	if !p.known {
		p.known, p.at = true, now
	}
	if rl.Limit > 0 {
		p.capacity = float64(rl.Limit)
	} else {
		// No limit header: the bucket holds at least what was ever left.
		p.capacity = max(p.capacity, float64(rl.Remaining+1))
	}
	if untilReset := rl.untilReset(now); untilReset > 0 {
		if used := p.capacity - float64(rl.Remaining); used > 0 {
			// Reset is whole seconds: the bucket may be full up to a second
			// earlier than it says, so this is a lower bound on the rate.
			sample := min(maxRate, max(minRate, used/max(untilReset.Seconds(), 1)))
			p.samples = append(p.samples, rateSample{at: now, rate: sample})
		}
		if p.fixedWindow {
			p.reset = now.Add(min(untilReset, time.Hour))
		}
	}
	// The answer tells the bucket's content; every request still without
	// an answer may not be counted in it yet, so they are taken off. Answers
	// to concurrent requests arrive in any order, so one may be older than
	// the last one read: content may drop at once, but may only grow as fast
	// as a bucket can refill since that last answer (at most its capacity per
	// second, or the rate seen, whichever is more).
	remaining := float64(rl.Remaining)
	if p.synced && remaining > p.syncR {
		refill := max(p.rate(now), p.capacity) * now.Sub(p.syncAt).Seconds()
		remaining = min(remaining, p.syncR+refill)
	}
	p.synced, p.syncR, p.syncAt = true, remaining, now
	p.tokens, p.at = remaining*p.share-float64(p.inflight), now
}

// denied records a 429 and returns how long everyone waits before the next
// request: Retry-After when the tenant says; a moment (one token's time) after
// a first 429; the reset after a second one in a row. Never more than max.
func (p *pacer) denied(h http.Header, limit time.Duration) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	rl := parseRateLimit(h)
	p.denials++
	p.tokens, p.at = 0, now
	p.share = max(minShare, p.share*shareBackoff)
	var d time.Duration
	switch r := p.rate(now); {
	case retryAfter(h, now) > 0:
		d = retryAfter(h, now)
	case p.denials == 1 && r > 0:
		d = time.Duration(float64(time.Second) / r)
	default:
		if p.denials == 2 {
			p.fixed++
			p.fixedWindow = p.fixedWindow || p.fixed >= 3
		}
		d = rl.untilReset(now)
		if d <= 0 {
			d = probe
		}
	}
	d = min(max(d, 50*time.Millisecond), limit)
	if t := now.Add(d); t.After(p.until) {
		p.until = t
	}
	return d
}

func (p *pacer) last() RateLimit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastRL
}
