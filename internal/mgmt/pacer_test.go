package mgmt_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// bucketTenant is a tenant limited by a token bucket (or a fixed window)
// that sends the rate-limit headers of reference §0.7, with the variations
// real tenants show: headers missing or odd, a clock that differs from ours.
type bucketTenant struct {
	*fakeTenant
	burst, refill float64
	window        time.Duration // > 0: a fixed window of burst requests
	skew          time.Duration // the tenant's clock, ahead of ours by this
	headers       func(h http.Header)

	mu        sync.Mutex
	tokens    float64
	last      time.Time
	windowEnd time.Time
	ok        atomic.Int64
	denied    atomic.Int64
}

func newBucketTenant(t testing.TB, burst, refill float64, mod ...func(*bucketTenant)) *bucketTenant {
	b := &bucketTenant{burst: burst, refill: refill, tokens: burst, last: time.Now()}
	for _, m := range mod {
		m(b)
	}
	b.fakeTenant = newFakeTenant(t, b.serve)
	return b
}

func (b *bucketTenant) serve(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	now := time.Now()
	var full time.Time
	if b.window > 0 {
		if !now.Before(b.windowEnd) {
			b.tokens, b.windowEnd = b.burst, now.Add(b.window)
		}
		full = b.windowEnd
	} else {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.refill)
		b.last = now
	}
	ok := b.tokens >= 1
	if ok {
		b.tokens--
	}
	if b.window == 0 {
		full = now.Add(time.Duration((b.burst - b.tokens) / b.refill * float64(time.Second)))
	}
	remaining := int(b.tokens)
	b.mu.Unlock()
	h := w.Header()
	h.Set("Date", now.Add(b.skew).UTC().Format(http.TimeFormat))
	h.Set("X-RateLimit-Limit", strconv.Itoa(int(b.burst)))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(full.Add(b.skew).UnixNano())/1e9)), 10))
	if b.headers != nil {
		b.headers(h)
	}
	if !ok {
		b.denied.Add(1)
		jsonReply(w, 429, `{"statusCode":429,"error":"Too Many Requests","message":"Global limit has been reached","errorCode":"too_many_requests"}`)
		return
	}
	b.ok.Add(1)
	jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
}

// run sends n requests from each of g goroutines of each client, and fails
// the test on any error or when ctx (the bound on a hang) ends first.
func run(t testing.TB, ctx context.Context, clients []*mgmt.Client, g, n int) {
	t.Helper()
	var wg sync.WaitGroup
	for _, c := range clients {
		for range g {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range n {
					if _, err := c.GetRole(ctx, "rol_1"); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
}

func (b *bucketTenant) pacedClient(t testing.TB) *mgmt.Client {
	return b.client(t, func(c *mgmt.Config) { c.MaxRetries = 20 })
}

// TestPacer_tokenBucketGetsNo429: 100 requests from 10 goroutines against
// a bucket of 5 refilled at 20/s, paced by what the headers prove.
func TestPacer_tokenBucketGetsNo429(t *testing.T) {
	b := newBucketTenant(t, 5, 20)
	run(t, context.Background(), []*mgmt.Client{b.pacedClient(t)}, 10, 10)
	if n := b.denied.Load(); n != 0 {
		t.Fatalf("%d of %d requests were answered 429", n, n+b.ok.Load())
	}
}

// TestPacer_twoClientsShareOneBucket: two processes against one tenant,
// the second starting while the first runs, learn of each other through the
// bucket's content in every answer and through their 429s.
func TestPacer_twoClientsShareOneBucket(t *testing.T) {
	b := newBucketTenant(t, 20, 20)
	var wg sync.WaitGroup
	for i, c := range []*mgmt.Client{b.pacedClient(t), b.pacedClient(t)} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 500 * time.Millisecond)
			run(t, context.Background(), []*mgmt.Client{c}, 10, 10)
		}()
	}
	wg.Wait()
	// Two processes read the same bucket content and cannot agree on who
	// takes it; the share of refusals is bounded, not zero (make bench
	// reports it for two whole applies).
	if n, all := b.denied.Load(), b.denied.Load()+b.ok.Load(); n*10 > all {
		t.Fatalf("%d of %d requests were answered 429 (more than 10%%)", n, all)
	}
}

// TestPacer_oddHeadersNeverHang: whatever is missing or odd in the headers,
// every request completes, retrying 429s with bounded waits; the deadline
// stands for a hang.
func TestPacer_oddHeadersNeverHang(t *testing.T) {
	for name, mod := range map[string]func(h http.Header){
		"no limit (remaining and reset only)": func(h http.Header) { h.Del("X-RateLimit-Limit") },
		"no reset":                            func(h http.Header) { h.Del("X-RateLimit-Reset") },
		"no remaining":                        func(h http.Header) { h.Del("X-RateLimit-Remaining") },
		"no headers": func(h http.Header) {
			h.Del("X-RateLimit-Limit")
			h.Del("X-RateLimit-Remaining")
			h.Del("X-RateLimit-Reset")
		},
		"no date":                func(h http.Header) { h.Del("Date") },
		"limit 0":                func(h http.Header) { h.Set("X-RateLimit-Limit", "0") },
		"negative remaining":     func(h http.Header) { h.Set("X-RateLimit-Remaining", "-3") },
		"remaining not a number": func(h http.Header) { h.Set("X-RateLimit-Remaining", "many") },
		"reset 0":                func(h http.Header) { h.Set("X-RateLimit-Reset", "0") },
		"reset in milliseconds": func(h http.Header) {
			h.Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Second).UnixMilli(), 10))
		},
		"reset in the past": func(h http.Header) {
			h.Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10))
		},
		"remaining above limit": func(h http.Header) { h.Set("X-RateLimit-Remaining", "500") },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := newBucketTenant(t, 5, 20, func(b *bucketTenant) { b.headers = mod })
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			run(t, ctx, []*mgmt.Client{b.pacedClient(t)}, 5, 6)
		})
	}
}

// TestPacer_serverClockDiffers: a tenant whose clock is hours off (its Date
// and Reset headers agree with each other, not with ours) is waited for by
// its own clock: waits neither stretch to the cap nor shrink to nothing.
func TestPacer_serverClockDiffers(t *testing.T) {
	for _, skew := range []time.Duration{2 * time.Hour, -2 * time.Hour, 90 * time.Second} {
		t.Run(skew.String(), func(t *testing.T) {
			t.Parallel()
			b := newBucketTenant(t, 5, 20, func(b *bucketTenant) { b.skew = skew })
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			run(t, ctx, []*mgmt.Client{b.pacedClient(t)}, 5, 10)
			if n, all := b.denied.Load(), b.denied.Load()+b.ok.Load(); n*10 > all {
				t.Fatalf("%d of %d requests were answered 429", n, all)
			}
		})
	}
}

// TestPacer_fixedWindow: a tenant whose budget comes back only at the end
// of each window; after a few double 429s the pacer waits for the window.
func TestPacer_fixedWindow(t *testing.T) {
	b := newBucketTenant(t, 5, 0, func(b *bucketTenant) { b.window = 300 * time.Millisecond })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run(t, ctx, []*mgmt.Client{b.pacedClient(t)}, 5, 20)
	if n, all := b.denied.Load(), b.denied.Load()+b.ok.Load(); n*4 > all {
		t.Fatalf("%d of %d requests were answered 429", n, all)
	}
}

// TestPacer_429HoldsEveryone: after a 429 no caller sends until the hold is
// over, and a caller whose context ends first gives up without sending; a
// second 429 in a row waits for the reset.
func TestPacer_429HoldsEveryone(t *testing.T) {
	var (
		mu    sync.Mutex
		times []time.Time
		reset = time.Now().Add(2500 * time.Millisecond).Truncate(time.Second)
	)
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		n := len(times)
		mu.Unlock()
		w.Header().Set("X-RateLimit-Limit", "10")
		w.Header().Set("X-RateLimit-Reset", fmt.Sprint(reset.Unix()))
		if n <= 2 {
			w.Header().Set("X-RateLimit-Remaining", "0")
			jsonReply(w, 429, `{"statusCode":429,"error":"Too Many Requests","message":"Global limit has been reached"}`)
			return
		}
		w.Header().Set("X-RateLimit-Remaining", "9")
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	c := f.client(t)
	done := make(chan error, 1)
	go func() { _, err := c.GetRole(context.Background(), "rol_1"); done <- err }()
	// The hold begins once the client has read the 429: wait for its record
	// of the hold, and give the next caller a context that ends before it.
	var until time.Time
	for until = mgmt.HoldUntil(c); until.IsZero(); until = mgmt.HoldUntil(c) {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithDeadline(context.Background(), until.Add(-10*time.Millisecond))
	defer cancel()
	if _, err := c.GetRole(ctx, "rol_1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a caller during the hold: err = %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(times) != 3 {
		t.Fatalf("%d requests, want 3 (the cancelled caller sent none)", len(times))
	}
	if times[1].Sub(times[0]) < 50*time.Millisecond {
		t.Fatalf("the first retry went %s after the 429", times[1].Sub(times[0]))
	}
	if times[2].Before(reset.Add(-time.Second)) {
		t.Fatalf("after a second 429 the retry went at %v, before the reset at %v", times[2], reset)
	}
	if rl := c.LastRateLimit(); !rl.Known || rl.Remaining != 9 || rl.Limit != 10 {
		t.Fatalf("rate limit not exposed: %+v", rl)
	}
}

// TestPacer_noHeadersNoSerialisation: a tenant that sends no rate-limit
// headers gets concurrent requests once its first answer is in.
func TestPacer_noHeadersNoSerialisation(t *testing.T) {
	var cur, peak atomic.Int64
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		n := cur.Add(1)
		defer cur.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	c := f.client(t)
	run(t, context.Background(), []*mgmt.Client{c}, 8, 3)
	if peak.Load() < 4 {
		t.Fatalf("at most %d requests ran at once: the client serialised a tenant without rate-limit headers", peak.Load())
	}
}

// BenchmarkPacer_tokenBucket reports how close to a tenant's limit the pacer
// runs (share of the rate the bucket allows) and its share of 429 answers.
func BenchmarkPacer_tokenBucket(b *testing.B) {
	for range b.N {
		tenant := newBucketTenant(b, 20, 20)
		c := tenant.pacedClient(b)
		start := time.Now()
		const n = 400
		run(b, context.Background(), []*mgmt.Client{c}, 10, n/10)
		elapsed := time.Since(start).Seconds()
		b.ReportMetric((n-20)/20/elapsed, "of-limit")
		b.ReportMetric(float64(tenant.denied.Load())/n, "429-share")
	}
}
