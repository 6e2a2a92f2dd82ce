package mgmt

import (
	"context"
	"sync"
)

// directReads is how many reads of a type go straight to GET before reads
// are served from shared list pages: a refresh of a handful of objects never
// lists the tenant.
const directReads = 2

// listPage is one page of a type's list, as the coalescer needs it.
type listPage[T any] struct {
	items []T
	// next is the cursor or page number of the following page; done when none.
	next  string
	done  bool
	total int // objects in the tenant; -1 when the list does not say
}

// coalescer serves many reads of one type from a few list pages shared by
// every waiting reader. Rules: a page is fetched only when the reads seen so
// far pay for the walk; a write of the type throws the pages away (a list
// result is never used after a write); an object missing from the list is
// read directly, so only a direct 404 says an object is gone.
type coalescer[T any] struct {
	key   func(*T) string
	fetch func(ctx context.Context, cursor string) (listPage[T], error)

	mu       sync.Mutex
	seen     int
	gen      int
	items    map[string]*T
	pages    int
	cursor   string
	done     bool
	total    int
	fetching chan struct{}
}

func newCoalescer[T any](key func(*T) string, fetch func(context.Context, string) (listPage[T], error)) *coalescer[T] {
	return &coalescer[T]{key: key, fetch: fetch, items: map[string]*T{}, total: -1}
}

// invalidate forgets every page: called on each write of the type.
func (c *coalescer[T]) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.items, c.pages, c.cursor, c.done, c.total = map[string]*T{}, 0, "", false, -1
}

// worth reports whether fetching one more page pays: with a known total, the
// reads past the direct ones must cover every page of the walk; without one,
// each further page needs one more read.
func (c *coalescer[T]) worth() bool {
	paid := c.seen - directReads
	if c.pages == 0 {
		return paid > 0
	}
	if c.total >= 0 {
		return paid >= (c.total+99)/100
	}
	return paid > c.pages
}

// get returns the object id, from the pages when they hold it, otherwise by
// direct(). It reports whether the answer came from a list page.
func (c *coalescer[T]) get(ctx context.Context, id string, direct func() (*T, error)) (*T, error) {
	c.mu.Lock()
	c.seen++
	if c.seen <= directReads {
		c.mu.Unlock()
		return direct()
	}
	for {
		if v, ok := c.items[id]; ok {
			cp := *v
			c.mu.Unlock()
			return &cp, nil
		}
		if c.done || !c.worth() {
			c.mu.Unlock()
			return direct()
		}
		if ch := c.fetching; ch != nil {
			c.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			c.mu.Lock()
			continue
		}
		ch, gen, cursor := make(chan struct{}), c.gen, c.cursor
		c.fetching = ch
		c.mu.Unlock()
		page, err := c.fetch(ctx, cursor)
		c.mu.Lock()
		c.fetching = nil
		close(ch)
		if err != nil {
			c.mu.Unlock()
			return direct()
		}
		if gen != c.gen {
			continue // a write happened meanwhile: this page is stale
		}
		for i := range page.items {
			c.items[c.key(&page.items[i])] = &page.items[i]
		}
		c.pages++
		c.cursor, c.done = page.next, page.done
		if page.total >= 0 {
			c.total = page.total
		}
	}
}
