package mgmt

import (
	"context"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// tokenCache hands out one access token to every caller until shortly before
// it expires, fetching a new one once however many goroutines ask. The margin
// scales with the token's lifetime (a quarter, at most 10s), so short-lived
// tokens are still reused instead of fetched for every request.
//
// The fetch runs apart from any one caller, so that callers who give up
// (Ctrl-C cancels their context) return at once instead of waiting behind the
// lock; the fetch itself is cancelled when every caller waiting for it has
// gone.
type tokenCache struct {
	fetch func(context.Context) (*oauth2.Token, error)

	mu       sync.Mutex
	tok      *oauth2.Token
	refresh  time.Time
	inflight *tokenFetch
}

// tokenFetch is one token request and the callers waiting for it.
type tokenFetch struct {
	done    chan struct{}
	tok     *oauth2.Token
	err     error
	cancel  context.CancelFunc
	waiters int
}

func (c *tokenCache) Token(ctx context.Context) (*oauth2.Token, error) {
	c.mu.Lock()
	if c.tok != nil && time.Now().Before(c.refresh) {
		defer c.mu.Unlock()
		return c.tok, nil
	}
	f := c.inflight
	if f == nil {
		// The fetch keeps the caller's values (log settings) but not its
		// cancellation: it serves every waiter.
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &tokenFetch{done: make(chan struct{}), cancel: cancel}
		c.inflight = f
		go c.run(fctx, f)
	}
	f.waiters++
	c.mu.Unlock()
	select {
	case <-f.done:
		return f.tok, f.err
	case <-ctx.Done():
		c.mu.Lock()
		f.waiters--
		if f.waiters == 0 && c.inflight == f {
			// Nobody waits any more: stop the request, and let the next
			// caller start a new one.
			c.inflight = nil
			f.cancel()
		}
		c.mu.Unlock()
		return nil, ctx.Err()
	}
}

func (c *tokenCache) run(ctx context.Context, f *tokenFetch) {
	start := time.Now()
	tok, err := c.fetch(ctx)
	c.mu.Lock()
	f.tok, f.err = tok, err
	if c.inflight == f {
		c.inflight = nil
		if err == nil {
			c.tok, c.refresh = tok, start.Add(time.Hour)
			if !tok.Expiry.IsZero() {
				life := tok.Expiry.Sub(start)
				c.refresh = tok.Expiry.Add(-min(10*time.Second, life/4))
			}
		}
	}
	c.mu.Unlock()
	f.cancel()
	close(f.done)
}

// invalidate drops old, so the next caller fetches a fresh token; a token
// another caller already replaced is kept.
func (c *tokenCache) invalidate(old string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tok != nil && c.tok.AccessToken == old {
		c.tok = nil
	}
}
