package conns

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// directReads is how many reads of a type, and how many finds of a type
// that can look an object up by its natural key directly, go straight to
// the object before the list is walked: a refresh or a plan of a handful of
// objects never lists the tenant.
const directReads = 2

// walkPages is how many list pages the first read or find past directReads
// may cost: a type of up to walkPages × pageSize objects in the tenant is
// listed whole then. Each later read (or find) allows one page more, so a
// longer list is walked once the reads that went direct have cost as much
// as the walk.
const walkPages = 10

// pageSize is how many objects a list page holds (the API's maximum).
const pageSize = 100

// listPage is one page of a type's list, as SharedReads needs it.
type listPage[T any] struct {
	items []T
	// next is the cursor or page number of the following page; done when none.
	next  string
	done  bool
	total int // objects in the tenant; -1 when the list does not say
}

// SharedReads serves the reads of one type in one run (one configured
// provider) from one walk of the type's list, shared by every reader,
// instead of one GET per object; and the plan-time lookups by natural key
// (Find) and whole listings (All) from the same walk.
//
// What a run costs depends only on how many reads and finds it makes and
// on the tenant, never on when they arrive, and no reader waits for others
// to arrive (only for pages being fetched). The k-th read of the run reads
// its object directly (GET) when k <= directReads. Past that it may have
// the walk fetch up to allowance(k) = walkPages + k - directReads - 1
// pages, and it is served from the walk when the whole list fits in them;
// otherwise it reads directly. A list that says its size (offset pages with
// a total) is fetched past its first page only when a reader's allowance
// covers all of it; when the first page shows more than walkPages pages, it
// served only to tell the size, and the walk starts again from the first
// page then. A list that does not say its size (cursor pages) is fetched
// page by page up to the allowance. Finds count the same way, with
// directReads lookups by natural key first when the type has one; a type
// without one (profiles), and All, walk the whole list at once.
//
// So a refresh of N objects of a type in a tenant of T costs N reads when N
// <= directReads, and directReads + ⌈T/100⌉ pages when the T objects fit in
// walkPages pages; past that, the reads that go direct cost at most what
// the walk costs before it is made. An object the walk does not hold (one
// deleted outside Terraform) is read directly, so only a direct 404 says an
// object is gone; such a read is the one cost that depends on the order of
// the reads (one request more when it comes after the walk).
//
// A write of the type updates what the run knows instead of dropping it
// (end): a create adds the object of its answer, an update replaces
// it, a delete removes it; a write whose outcome is not known (no answer, a
// server error) drops the pages, which the next walk reads again. The walk
// and the writes of its type exclude each other: a write waits for the
// pages being fetched, a walk for the writes in flight, so no object moves
// between two pages of one walk. The pages a walk takes are the tenant's
// count when it starts: writes of the run that come before it (an apply's
// first creates, whose checks read directly, or its deletes) count, so on
// a tenant whose count sits at a multiple of 100 the walk can take one page
// more or less from one run to the next.
type SharedReads[T any] struct {
	key        func(*T) string
	fetch      func(ctx context.Context, cursor string) (listPage[T], error)
	direct     func(ctx context.Context, id string) (*T, error)
	natural    func(*T) string
	findDirect func(ctx context.Context, key string) (*T, error)
	// unchanged names the sub-resources whose writes leave the object as
	// the list shows it (a role's permissions).
	unchanged map[string]bool

	mu    sync.Mutex
	reads int
	finds int

	// The walk: the objects of the pages read, by id and by natural key.
	listed    map[string]*T
	listedKey map[string]string
	pages     int
	cursor    string
	cursors   map[string]bool // the cursors of the pages read: one that repeats ends the walk
	done      bool
	failure   error // a page failed: the walk is over for this run
	size      int   // pages the list needs, as its first page said; -1 unknown

	// written holds the objects as this run's writes left them (nil: the
	// run deleted it), over what the pages show.
	written    map[string]*T
	writtenKey map[string]string

	walking bool          // a walker is fetching pages
	wanted  int           // walkers waiting for the writes in flight
	writing int           // writes of the type in flight
	changed chan struct{} // closed, and replaced, when walking or writing changes
}

func newSharedReads[T any](key func(*T) string, fetch func(context.Context, string) (listPage[T], error), direct func(context.Context, string) (*T, error)) *SharedReads[T] {
	c := &SharedReads[T]{key: key, fetch: fetch, direct: direct, size: -1, changed: make(chan struct{}),
		written: map[string]*T{}, writtenKey: map[string]string{}}
	c.resetWalk()
	return c
}

// withNatural adds lookups by natural key (Find); direct may be nil.
func (c *SharedReads[T]) withNatural(natural func(*T) string, direct func(context.Context, string) (*T, error)) *SharedReads[T] {
	c.natural, c.findDirect = natural, direct
	return c
}

// withUnchanged names the sub-resources whose writes leave the object as
// listed, so that they keep the pages.
func (c *SharedReads[T]) withUnchanged(sub ...string) *SharedReads[T] {
	c.unchanged = map[string]bool{}
	for _, s := range sub {
		c.unchanged[s] = true
	}
	return c
}

// resetWalk forgets the pages read; c.mu must be held (or c not shared yet).
func (c *SharedReads[T]) resetWalk() {
	c.listed, c.listedKey, c.pages, c.cursor, c.cursors, c.done = map[string]*T{}, map[string]string{}, 0, "", nil, false
}

// signal wakes whoever waits for walking or writing to change; c.mu must be
// held.
func (c *SharedReads[T]) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// allowance is how many pages the n-th read or find (n > directReads) may
// have the walk fetch.
func allowance(n int) int { return walkPages + n - directReads - 1 }

// needed is how many pages the whole list takes: its size as the first page
// said, or the pages of a finished walk of a list that does not say.
func (c *SharedReads[T]) needed() int {
	if c.size >= 0 {
		return c.size
	}
	return c.pages
}

// served reports whether a reader allowed pages (< 0: any number) is served
// from the walk: it is finished and fits in them. c.mu must be held.
func (c *SharedReads[T]) served(allowed int) bool {
	return c.done && c.failure == nil && (allowed < 0 || c.needed() <= allowed)
}

// lookup returns the object id as the run knows it; c.mu must be held.
func (c *SharedReads[T]) lookup(id string) (*T, bool) {
	if v, ok := c.written[id]; ok {
		return v, v != nil
	}
	v, ok := c.listed[id]
	return v, ok
}

// lookupKey returns the object whose natural key is key; c.mu must be held.
func (c *SharedReads[T]) lookupKey(key string) (*T, bool) {
	if id, ok := c.writtenKey[key]; ok {
		if v := c.written[id]; v != nil && c.natural(v) == key {
			return v, true
		}
	}
	if id, ok := c.listedKey[key]; ok {
		if _, rewritten := c.written[id]; !rewritten {
			return c.listed[id], true
		}
	}
	return nil, false
}

// Read returns the object id, from the walk when the read is served by it
// and the walk holds the object, otherwise by a direct read.
func (c *SharedReads[T]) Read(ctx context.Context, id string) (*T, error) {
	c.mu.Lock()
	c.reads++
	if c.reads <= directReads {
		c.mu.Unlock()
		return c.direct(ctx, id)
	}
	allowed := allowance(c.reads)
	if err := c.walk(ctx, allowed); err != nil {
		return nil, err
	}
	if c.served(allowed) {
		if v, ok := c.lookup(id); ok {
			cp := *v
			c.mu.Unlock()
			return &cp, nil
		}
	}
	c.mu.Unlock()
	return c.direct(ctx, id)
}

// Find returns the object whose natural key is key (an API's identifier, a
// role's name, a profile's subject token type), or nil when the tenant
// holds none: what a plan asks before a create. It counts like Read: the
// first directReads finds use the type's direct lookup, when it has one;
// later ones the walk, within their allowance, or else the direct lookup.
// A type without a direct lookup walks the whole list at the first find.
// So the checks of a plan that creates many objects cost the pages of one
// walk, not a read per object; and after the run's own writes the walk
// still holds, so the checks of an apply cost that walk once too.
func (c *SharedReads[T]) Find(ctx context.Context, key string) (*T, error) {
	c.mu.Lock()
	c.finds++
	allowed := -1
	if c.findDirect != nil {
		if c.finds <= directReads {
			c.mu.Unlock()
			return c.findDirect(ctx, key)
		}
		allowed = allowance(c.finds)
	}
	if err := c.walk(ctx, allowed); err != nil {
		return nil, err
	}
	if !c.served(allowed) {
		// The walk failed, or the list is longer than this find's
		// allowance (a type without a direct lookup walks it whole).
		failure := c.failure
		c.mu.Unlock()
		if c.findDirect != nil {
			return c.findDirect(ctx, key)
		}
		return nil, failure
	}
	v, ok := c.lookupKey(key)
	c.mu.Unlock()
	if !ok {
		return nil, nil
	}
	cp := *v
	return &cp, nil
}

// All returns every object of the type as the run knows it, from one walk
// of the list shared with Read and Find.
func (c *SharedReads[T]) All(ctx context.Context) ([]T, error) {
	c.mu.Lock()
	if err := c.walk(ctx, -1); err != nil {
		return nil, err
	}
	if c.failure != nil {
		err := c.failure
		c.mu.Unlock()
		return nil, err
	}
	out := make([]T, 0, len(c.listed)+len(c.written))
	for id, v := range c.listed {
		if _, rewritten := c.written[id]; !rewritten {
			out = append(out, *v)
		}
	}
	for _, v := range c.written {
		if v != nil {
			out = append(out, *v)
		}
	}
	c.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return c.key(&out[i]) < c.key(&out[j]) })
	return out, nil
}

// AfterWrites returns once no write of the type is in flight (at once when
// none is), so that what the run knows holds them. Writes that start while
// it waits extend the wait; each ends by itself (answered, or failed after
// the client's retries). It cannot wait for a write not sent yet. When ctx
// ends it returns at once, and what the run knows may not hold them.
func (c *SharedReads[T]) AfterWrites(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.writing > 0 {
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			c.mu.Lock()
			return
		}
		c.mu.Lock()
	}
}

// walk fetches pages until the list is done or a page failed, or, for a
// reader allowed pages (>= 0), until the list is known to need more than
// that or the walk holds that many. c.mu is held on entry and on return,
// but when ctx ends: then it is released and ctx's error returned.
func (c *SharedReads[T]) walk(ctx context.Context, allowed int) error {
	waiting := false
	defer func() {
		if waiting {
			c.wanted--
			c.signal()
		}
	}()
	for {
		if c.done || c.failure != nil || allowed >= 0 && (c.size > allowed || c.size < 0 && c.pages >= allowed) {
			return nil
		}
		if c.walking || c.writing > 0 {
			// Another walker is fetching, or writes of the type are in
			// flight: a page now could miss an object they move.
			if !c.walking && !waiting {
				waiting = true
				c.wanted++
			}
			ch := c.changed
			c.mu.Unlock()
			select {
			case <-ch:
				c.mu.Lock()
			case <-ctx.Done():
				c.mu.Lock()
				if waiting {
					waiting = false
					c.wanted--
					c.signal()
				}
				c.mu.Unlock()
				return ctx.Err()
			}
			continue
		}
		if waiting {
			waiting = false
			c.wanted--
		}
		c.walking = true
		err := c.fetchPages(ctx, allowed)
		c.walking = false
		c.signal()
		if err != nil {
			c.mu.Unlock()
			return err
		}
	}
}

// fetchPages fetches pages, with c.mu held on entry and on return (it is
// released while a request runs), until the walk is done or failed, or it
// holds allowed pages (>= 0), or the first page shows the list needs more
// than allowed. A list longer than walkPages pages keeps its size from
// the first page but not the page itself: the walk starts again from the
// first page when a reader's allowance covers the size, whoever fetched
// the first page, so what a run costs does not depend on which reader came
// first. It returns ctx's error when ctx ended during a request.
func (c *SharedReads[T]) fetchPages(ctx context.Context, allowed int) error {
	for !c.done && c.failure == nil {
		if allowed >= 0 && (c.size > allowed || c.size < 0 && c.pages >= allowed) {
			return nil
		}
		cursor := c.cursor
		c.mu.Unlock()
		page, err := c.fetch(ctx, cursor)
		c.mu.Lock()
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil && !page.done && (page.next == cursor || c.cursors[page.next]) {
			err = fmt.Errorf("malformed list response: the cursor %q repeats", page.next)
		}
		if err != nil {
			c.failure = err
			return nil
		}
		if c.cursors == nil {
			c.cursors = map[string]bool{}
		}
		c.cursors[cursor] = true
		for i := range page.items {
			item := &page.items[i]
			c.listed[c.key(item)] = item
			if c.natural != nil {
				c.listedKey[c.natural(item)] = c.key(item)
			}
		}
		c.pages++
		c.cursor, c.done = page.next, page.done
		if c.pages == 1 && page.total >= 0 && c.size < 0 {
			c.size = max(1, (page.total+pageSize-1)/pageSize)
			if c.size > walkPages && !c.done {
				c.resetWalk()
			}
		}
	}
	return nil
}

// write is one write request of the run, as it ended.
type write struct {
	method string
	// rest are the path's segments after the type's own (unescaped): none
	// for the collection, the id, then a sub-resource.
	rest   []string
	body   any
	answer any
	err    error
}

// refused reports whether err is the tenant's refusal, after which nothing
// changed (4xx, 429 included).
func refused(err error) bool {
	s := mgmt.StatusOf(err)
	return s >= 400 && s < 500
}

// begin waits for the walk being fetched and counts a write in flight.
func (c *SharedReads[T]) begin() {
	c.mu.Lock()
	for c.walking || c.wanted > 0 {
		ch := c.changed
		c.mu.Unlock()
		<-ch
		c.mu.Lock()
	}
	c.writing++
	c.mu.Unlock()
}

// end applies what the ended write w did to what the run knows, and ends
// it: a create or an update puts the object of the answer, a delete removes
// it, and a write whose outcome is unknown drops the pages (and what the run
// wrote of that object).
func (c *SharedReads[T]) end(w write) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.signal()
	c.writing--
	obj, _ := w.answer.(*T)
	if obj != nil && c.key(obj) == "" {
		obj = nil
	}
	id := ""
	if len(w.rest) > 0 {
		id = c.resolve(w.rest[0])
	}
	switch {
	case len(w.rest) > 1 && (obj == nil || c.key(obj) != id) && (c.unchanged[w.rest[1]] || w.err != nil && refused(w.err)):
		// A sub-resource that leaves the object as listed, or a refused
		// write of one.
	case w.method == http.MethodDelete && len(w.rest) == 1 && (w.err == nil || mgmt.IsNotFound(w.err)):
		c.remove(id)
	case w.err == nil && obj != nil:
		c.put(obj)
	case w.err != nil && refused(w.err):
		// Nothing changed.
	default:
		c.resetWalk()
		if id != "" {
			delete(c.written, id)
		}
	}
}

// removeWhere ends a write of another type that deleted the objects of
// this type that match: the run knows them deleted. A nil match (the run
// cannot tell which) drops the pages and the run's writes, which the next
// walk reads again.
func (c *SharedReads[T]) removeWhere(match func(*T) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.signal()
	c.writing--
	if match == nil {
		c.resetWalk()
		clear(c.written)
		clear(c.writtenKey)
		return
	}
	for id, v := range c.listed {
		if _, ok := c.written[id]; !ok && match(v) {
			c.written[id] = nil
		}
	}
	for id, v := range c.written {
		if v != nil && match(v) {
			c.written[id] = nil
		}
	}
}

// resolve returns the id of the object a path segment names: its id, or,
// for an API, its identifier (the path accepts both).
func (c *SharedReads[T]) resolve(segment string) string {
	if _, ok := c.lookup(segment); ok || c.natural == nil {
		return segment
	}
	if v, ok := c.lookupKey(segment); ok {
		return c.key(v)
	}
	return segment
}

// put records obj as the run's write left it; c.mu must be held.
func (c *SharedReads[T]) put(obj *T) {
	cp := *obj
	id := c.key(&cp)
	c.written[id] = &cp
	if c.natural != nil {
		c.writtenKey[c.natural(&cp)] = id
	}
}

// remove records that the run deleted id; c.mu must be held.
func (c *SharedReads[T]) remove(id string) {
	c.written[id] = nil
}

// known returns the object id as the run knows it from the walk or its own
// writes, without a request.
func (c *SharedReads[T]) known(idOrKey string) (*T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.lookup(c.resolve(idOrKey))
	if !ok {
		return nil, false
	}
	cp := *v
	return &cp, true
}
