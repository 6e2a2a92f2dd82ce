package mgmt

import (
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// tokenCache hands out one access token to every caller until shortly before
// it expires, fetching a new one once however many goroutines ask. The margin
// scales with the token's lifetime (a quarter, at most 10s), so short-lived
// tokens are still reused instead of fetched for every request.
type tokenCache struct {
	fetch func() (*oauth2.Token, error)

	mu      sync.Mutex
	tok     *oauth2.Token
	refresh time.Time
}

func (c *tokenCache) Token() (*oauth2.Token, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if c.tok != nil && now.Before(c.refresh) {
		return c.tok, nil
	}
	t, err := c.fetch()
	if err != nil {
		return nil, err
	}
	c.tok, c.refresh = t, now.Add(time.Hour)
	if !t.Expiry.IsZero() {
		life := t.Expiry.Sub(now)
		c.refresh = t.Expiry.Add(-min(10*time.Second, life/4))
	}
	return t, nil
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
