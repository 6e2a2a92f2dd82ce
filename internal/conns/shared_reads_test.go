package conns

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type object struct{ ID, Name string }

// fakeList is a tenant of n objects read through pages of 100 and GETs,
// counting each.
type fakeList struct {
	mu    sync.Mutex
	ids   []string
	names map[string]string
	pages atomic.Int64
	gets  atomic.Int64
}

func newFakeList(n int) *fakeList {
	f := &fakeList{names: map[string]string{}}
	for i := range n {
		id := fmt.Sprintf("%024d", i)
		f.ids = append(f.ids, id)
		f.names[id] = fmt.Sprintf("api-%d", i)
	}
	return f
}

func (f *fakeList) reads() *SharedReads[object] {
	s := newSharedReads(func(o *object) string { return o.ID }, f.page, f.get)
	return s
}

func (f *fakeList) page(_ context.Context, cursor string) (listPage[object], error) {
	f.pages.Add(1)
	time.Sleep(2 * time.Millisecond)
	page, _ := strconv.Atoi(cursor)
	f.mu.Lock()
	defer f.mu.Unlock()
	var items []object
	for i := page * 100; i < min(len(f.ids), (page+1)*100); i++ {
		items = append(items, object{f.ids[i], f.names[f.ids[i]]})
	}
	return listPage[object]{items: items, next: strconv.Itoa(page + 1), done: (page+1)*100 >= len(f.ids), total: len(f.ids)}, nil
}

var errNotFound = errors.New("404")

func (f *fakeList) get(_ context.Context, id string) (*object, error) {
	f.gets.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	name, ok := f.names[id]
	if !ok {
		return nil, errNotFound
	}
	return &object{id, name}, nil
}

// readAll reads ids ten at a time, as Terraform refreshes with its default
// parallelism, starting a read every gap at most.
func readAll(t *testing.T, s *SharedReads[object], ids []string, gap time.Duration) map[string]string {
	t.Helper()
	var mu sync.Mutex
	got := map[string]string{}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 10)
	for _, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		time.Sleep(gap)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			o, err := s.Read(context.Background(), id)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			got[id] = o.Name
			mu.Unlock()
		}()
	}
	wg.Wait()
	return got
}

// TestSharedReads_concurrentReadersShareOneWalk: a refresh of a whole tenant
// costs exactly its pages and the direct reads, however the reads interleave.
func TestSharedReads_concurrentReadersShareOneWalk(t *testing.T) {
	for run, gap := range []time.Duration{0, 0, time.Millisecond, 3 * time.Millisecond} {
		f := newFakeList(500)
		ids := append([]string(nil), f.ids...)
		rand.New(rand.NewPCG(uint64(run), 1)).Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		got := readAll(t, f.reads(), ids, gap)
		if len(got) != 500 || got[f.ids[499]] != "api-499" {
			t.Fatalf("read %d objects", len(got))
		}
		if f.pages.Load() != 5 || f.gets.Load() != 2 {
			t.Fatalf("run %d: 500 reads cost %d pages and %d GETs; want 5 pages and 2 GETs", run, f.pages.Load(), f.gets.Load())
		}
	}
}

// TestSharedReads_fewReadsOnALargeTenantStayDirect: up to two reads never
// list; past that, a large tenant costs one page (the one that tells its
// size) and the reads stay direct once the refresh goes quiet.
func TestSharedReads_fewReadsOnALargeTenantStayDirect(t *testing.T) {
	f := newFakeList(3000)
	s := f.reads()
	s.quiet = 20 * time.Millisecond
	readAll(t, s, f.ids[2998:], 0)
	if f.pages.Load() != 0 || f.gets.Load() != 2 {
		t.Fatalf("2 reads cost %d pages and %d GETs; want 0 pages and 2 GETs", f.pages.Load(), f.gets.Load())
	}
	readAll(t, s, f.ids[2980:2998], 0)
	if f.pages.Load() != 1 || f.gets.Load() != 20 {
		t.Fatalf("20 reads on 3000 objects cost %d pages and %d GETs; want the 1 page that tells the size and 20 GETs", f.pages.Load(), f.gets.Load())
	}
}

// TestSharedReads_eachRunStartsAfresh: what one run read does not change
// what the next run's reads cost (a new SharedReads per configured provider).
func TestSharedReads_eachRunStartsAfresh(t *testing.T) {
	f := newFakeList(50)
	readAll(t, f.reads(), f.ids, 0)
	f.pages.Store(0)
	f.gets.Store(0)
	readAll(t, f.reads(), f.ids[:2], 0)
	if f.pages.Load() != 0 || f.gets.Load() != 2 {
		t.Fatalf("2 reads in a new run cost %d pages and %d GETs; want 2 GETs", f.pages.Load(), f.gets.Load())
	}
}

func TestSharedReads_writeInvalidates(t *testing.T) {
	f := newFakeList(50)
	s := f.reads()
	readAll(t, s, f.ids, 0)
	f.mu.Lock()
	f.names[f.ids[10]] = "renamed"
	f.mu.Unlock()
	s.invalidate()
	pages := f.pages.Load()
	if got := readAll(t, s, f.ids, 0); got[f.ids[10]] != "renamed" {
		t.Fatalf("stale value %q after a write", got[f.ids[10]])
	}
	if f.pages.Load() == pages {
		t.Fatal("the pages were not fetched again after the write")
	}
}

func TestSharedReads_missingObjectFallsBackToGET(t *testing.T) {
	f := newFakeList(20)
	s := f.reads()
	readAll(t, s, f.ids, 0)
	gets := f.gets.Load()
	if _, err := s.Read(context.Background(), "ffffffffffffffffffffffff"); !errors.Is(err, errNotFound) {
		t.Fatalf("err = %v, want the direct read's 404", err)
	}
	if f.gets.Load() != gets+1 {
		t.Fatal("an object missing from the list was not read directly")
	}
}

// findByName looks an object up by name directly (a GET-like lookup).
func (f *fakeList) findByName(_ context.Context, name string) (*object, error) {
	f.gets.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, n := range f.names {
		if n == name {
			return &object{id, n}, nil
		}
	}
	return nil, nil
}

// TestSharedReads_findByNaturalKey: many finds of a plan (most for objects
// the tenant does not hold: creates) cost the direct lookups and one walk
// of the list, and every answer is right.
func TestSharedReads_findByNaturalKey(t *testing.T) {
	f := newFakeList(250)
	s := f.reads().withNatural(func(o *object) string { return o.Name }, f.findByName)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("api-%d", i*5) // api-0 ... api-495: half exist
			o, err := s.Find(context.Background(), name)
			switch {
			case err != nil:
				errs <- err
			case i*5 < 250 && (o == nil || o.Name != name):
				errs <- fmt.Errorf("%s: got %v, want it found", name, o)
			case i*5 >= 250 && o != nil:
				errs <- fmt.Errorf("%s: got %v, want none", name, o)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if p, g := f.pages.Load(), f.gets.Load(); p != 3 || g != directReads {
		t.Fatalf("100 finds cost %d pages and %d direct lookups, want 3 and %d", p, g, directReads)
	}
	// Without a direct lookup every find uses the walk.
	f2 := newFakeList(50)
	s2 := f2.reads().withNatural(func(o *object) string { return o.Name }, nil)
	if o, err := s2.Find(context.Background(), "api-7"); err != nil || o == nil {
		t.Fatalf("%v %v", o, err)
	}
	if f2.pages.Load() != 1 || f2.gets.Load() != 0 {
		t.Fatalf("%d pages, %d gets", f2.pages.Load(), f2.gets.Load())
	}
}

// TestSharedReads_repeatingCursorEndsTheWalk: a list whose cursor comes
// back (A, B, A) fails the walk after the pages it read, never loops.
func TestSharedReads_repeatingCursorEndsTheWalk(t *testing.T) {
	next := map[string]string{"": "A", "A": "B", "B": "A"}
	var pages atomic.Int64
	s := newSharedReads(func(o *object) string { return o.ID },
		func(_ context.Context, cursor string) (listPage[object], error) {
			pages.Add(1)
			return listPage[object]{items: []object{{ID: "id-" + cursor}}, next: next[cursor], total: -1}, nil
		}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := s.All(ctx)
	if err == nil || !strings.Contains(err.Error(), `the cursor "A" repeats`) {
		t.Fatalf("err = %v, want the repeated cursor", err)
	}
	if n := pages.Load(); n != 3 {
		t.Fatalf("%d pages read, want 3", n)
	}
}
