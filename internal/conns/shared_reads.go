package conns

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"
)

// directReads is how many reads of a type go straight to GET before reads
// are served from shared list pages: a refresh of a handful of objects never
// lists the tenant.
const directReads = 2

// defaultQuiet is how long a read waits for further reads before it gives
// up on the list and reads its object directly. Terraform refreshes with
// several reads in flight and starts the next as soon as one ends, so a
// pause this long means the refresh has no more reads for the walk to serve.
const defaultQuiet = 500 * time.Millisecond

// listPage is one page of a type's list, as SharedReads needs it.
type listPage[T any] struct {
	items []T
	// next is the cursor or page number of the following page; done when none.
	next  string
	done  bool
	total int // objects in the tenant; -1 when the list does not say
}

// SharedReads serves the reads of one type in one run (one configured
// provider) from a few list pages that every waiting reader shares, instead
// of one GET per object.
//
// Its cost depends on the refresh and the tenant, not on what ran before in
// the process (a new SharedReads comes with every configured provider): the
// first directReads reads are direct GETs; every later read waits for the
// list, whose next page is fetched as soon as the reads seen pay for it (with
// a known total, for the whole walk: ⌈total/100⌉ pages; without one, one more
// read per page). While the walk cannot pay yet, readers wait for more reads
// to arrive; only when none arrives within quiet do they read directly. So a
// refresh of a whole tenant of N objects costs ⌈N/100⌉ + directReads
// requests, and a refresh of a few objects on a large tenant at most one page
// (the one that tells the tenant's size) more than direct reads. Which reads
// use a page and which a GET can depend on when reads arrive; what they
// return cannot: a list item and a GET show the same object.
//
// A write of the type throws the pages away (a list result is never used
// after a write); an object missing from a finished walk is read directly,
// so only a direct 404 says an object is gone.
type SharedReads[T any] struct {
	key    func(*T) string
	fetch  func(ctx context.Context, cursor string) (listPage[T], error)
	direct func(ctx context.Context, id string) (*T, error)
	quiet  time.Duration

	mu       sync.Mutex
	seen     int
	gen      int
	items    map[string]*T
	pages    int
	cursor   string
	cursors  map[string]bool // the cursors of the pages read: one that repeats ends the walk
	done     bool
	failed   bool // a page failed: the rest of this walk reads directly
	total    int
	fetching chan struct{}
	arrived  chan struct{} // closed, and replaced, when a read arrives

	// natural is the object's natural key (an API's identifier, a role's
	// name), findDirect looks one up by it directly (nil when the type has
	// no lookup cheaper than the list), finds counts the lookups and byKey
	// indexes the objects of the pages read.
	natural    func(*T) string
	findDirect func(ctx context.Context, key string) (*T, error)
	finds      int
	byKey      map[string]*T
	failure    error
}

func newSharedReads[T any](key func(*T) string, fetch func(context.Context, string) (listPage[T], error), direct func(context.Context, string) (*T, error)) *SharedReads[T] {
	return &SharedReads[T]{key: key, fetch: fetch, direct: direct, quiet: defaultQuiet, items: map[string]*T{}, byKey: map[string]*T{}, total: -1, arrived: make(chan struct{})}
}

// withNatural adds lookups by natural key (Find); direct may be nil.
func (c *SharedReads[T]) withNatural(natural func(*T) string, direct func(context.Context, string) (*T, error)) *SharedReads[T] {
	c.natural, c.findDirect = natural, direct
	return c
}

// invalidate forgets every page: called on each write of the type.
func (c *SharedReads[T]) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.items, c.pages, c.cursor, c.done, c.failed, c.total = map[string]*T{}, 0, "", false, false, -1
	c.byKey, c.failure, c.cursors = map[string]*T{}, nil, nil
}

// worth reports whether the reads seen so far pay for the next page.
func (c *SharedReads[T]) worth() bool {
	paid := c.seen - directReads
	switch {
	case c.pages == 0:
		return paid > 0
	case c.total >= 0:
		return paid >= (c.total+99)/100
	}
	return paid > c.pages
}

// Read returns the object id, from the pages when they hold it, otherwise
// by a direct read.
func (c *SharedReads[T]) Read(ctx context.Context, id string) (*T, error) {
	c.mu.Lock()
	c.seen++
	close(c.arrived)
	c.arrived = make(chan struct{})
	if c.seen <= directReads {
		c.mu.Unlock()
		return c.direct(ctx, id)
	}
	for {
		if v, ok := c.items[id]; ok {
			cp := *v
			c.mu.Unlock()
			return &cp, nil
		}
		if c.done || c.failed {
			c.mu.Unlock()
			return c.direct(ctx, id)
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
		if !c.worth() {
			// Wait for another read to pay for the page, or read directly
			// once the refresh has gone quiet.
			arrived := c.arrived
			c.mu.Unlock()
			t := time.NewTimer(c.quiet)
			select {
			case <-arrived:
				t.Stop()
			case <-t.C:
				return c.direct(ctx, id)
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			}
			c.mu.Lock()
			continue
		}
		c.fetchNext(ctx)
	}
}

// fetchNext fetches the next page, with c.mu held on entry and on return
// (it is released while the request runs). A write meanwhile makes the
// page stale and it is dropped; a failed page ends the walk (failed).
func (c *SharedReads[T]) fetchNext(ctx context.Context) {
	ch, gen, cursor := make(chan struct{}), c.gen, c.cursor
	c.fetching = ch
	c.mu.Unlock()
	page, err := c.fetch(ctx, cursor)
	c.mu.Lock()
	c.fetching = nil
	close(ch)
	if gen != c.gen {
		return // a write happened meanwhile: this page is stale
	}
	if err == nil && !page.done && (page.next == cursor || c.cursors[page.next]) {
		err = fmt.Errorf("malformed list response: the cursor %q repeats", page.next)
	}
	if err != nil {
		c.failed, c.failure = true, err
		return
	}
	if c.cursors == nil {
		c.cursors = map[string]bool{}
	}
	c.cursors[cursor] = true
	for i := range page.items {
		item := &page.items[i]
		c.items[c.key(item)] = item
		if c.natural != nil {
			c.byKey[c.natural(item)] = item
		}
	}
	c.pages++
	c.cursor, c.done = page.next, page.done
	if page.total >= 0 {
		c.total = page.total
	}
}

// Find returns the object whose natural key is key (an API's identifier, a
// role's name, a profile's subject token type), or nil when the tenant
// holds none: what a plan asks before a create. The first directReads
// finds of a run use the type's direct lookup, when it has one; later finds
// share one walk of the list, so a plan that creates many objects costs
// ⌈N/100⌉ pages of the tenant's N objects, not a read per object.
func (c *SharedReads[T]) Find(ctx context.Context, key string) (*T, error) {
	c.mu.Lock()
	c.finds++
	if c.findDirect != nil && c.finds <= directReads {
		c.mu.Unlock()
		return c.findDirect(ctx, key)
	}
	if err := c.walkAll(ctx); err != nil {
		return nil, err
	}
	if c.failed {
		err := c.failure
		c.mu.Unlock()
		if c.findDirect != nil {
			return c.findDirect(ctx, key)
		}
		return nil, err
	}
	v, ok := c.byKey[key]
	c.mu.Unlock()
	if !ok {
		return nil, nil
	}
	cp := *v
	return &cp, nil
}

// All returns every object of the type, from one walk of the list shared
// with Find.
func (c *SharedReads[T]) All(ctx context.Context) ([]T, error) {
	c.mu.Lock()
	if err := c.walkAll(ctx); err != nil {
		return nil, err
	}
	if c.failed {
		err := c.failure
		c.mu.Unlock()
		return nil, err
	}
	out := make([]T, 0, len(c.items))
	for _, v := range c.items {
		out = append(out, *v)
	}
	c.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return c.key(&out[i]) < c.key(&out[j]) })
	return out, nil
}

// walkAll fetches the rest of the list, sharing its pages with the other
// walkers, until it is done or a page failed. c.mu is held on entry and on
// return, but when ctx ends: then it is released and ctx's error returned.
func (c *SharedReads[T]) walkAll(ctx context.Context) error {
	for !c.done && !c.failed {
		if ch := c.fetching; ch != nil {
			c.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return ctx.Err()
			}
			c.mu.Lock()
			continue
		}
		c.fetchNext(ctx)
	}
	return nil
}
