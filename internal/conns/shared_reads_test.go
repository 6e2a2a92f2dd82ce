package conns

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/testorder"
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
// list; past that, a tenant longer than walkPages pages costs the one page
// that tells its size, and the reads stay direct until they have cost as
// much as the walk: then the walk starts again from its first page and
// serves every later read. No read waits for others to arrive.
func TestSharedReads_fewReadsOnALargeTenantStayDirect(t *testing.T) {
	f := newFakeList(3000)
	s := f.reads()
	readAll(t, s, f.ids[2998:], 0)
	if f.pages.Load() != 0 || f.gets.Load() != 2 {
		t.Fatalf("2 reads cost %d pages and %d GETs; want 0 pages and 2 GETs", f.pages.Load(), f.gets.Load())
	}
	readAll(t, s, f.ids[2980:2998], 0)
	if f.pages.Load() != 1 || f.gets.Load() != 20 {
		t.Fatalf("20 reads on 3000 objects cost %d pages and %d GETs; want the 1 page that tells the size and 20 GETs", f.pages.Load(), f.gets.Load())
	}
	// Reads 21 and 22 still read directly (their allowances, 28 and 29
	// pages, do not cover 30); the 23rd walks the list and serves the rest.
	readAll(t, s, f.ids[:1000], 0)
	if f.pages.Load() != 31 || f.gets.Load() != 22 {
		t.Fatalf("1020 reads on 3000 objects cost %d pages and %d GETs; want 1 + 30 pages and 22 GETs", f.pages.Load(), f.gets.Load())
	}
}

// TestSharedReads_costDoesNotDependOnTiming: for each tenant size and
// number of reads, many runs with reads arriving in other orders and at
// other times cost exactly the same pages and GETs.
func TestSharedReads_costDoesNotDependOnTiming(t *testing.T) {
	for _, tc := range []struct{ objects, reads int }{{50, 1}, {50, 2}, {50, 3}, {50, 50}, {950, 5}, {1500, 3}, {1500, 8}, {1500, 200}} {
		var pages, gets int64 = -1, -1
		for run := range 6 {
			f := newFakeList(tc.objects)
			ids := append([]string(nil), f.ids...)
			rand.New(rand.NewPCG(uint64(run), 7)).Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
			gap := time.Duration(run%3) * time.Millisecond
			got := readAll(t, f.reads(), ids[:tc.reads], gap)
			for _, id := range ids[:tc.reads] {
				if got[id] != f.names[id] {
					t.Fatalf("%+v: read %q as %q", tc, id, got[id])
				}
			}
			if run == 0 {
				pages, gets = f.pages.Load(), f.gets.Load()
				t.Logf("%d reads of a tenant of %d: %d pages, %d GETs", tc.reads, tc.objects, pages, gets)
				continue
			}
			if f.pages.Load() != pages || f.gets.Load() != gets {
				t.Fatalf("%+v, run %d: %d pages and %d GETs; run 1: %d pages and %d GETs", tc, run, f.pages.Load(), f.gets.Load(), pages, gets)
			}
		}
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

// writeThrough makes a write to the fake tenant as the API client does:
// begin before it, end with its answer after it.
func writeThrough(s *SharedReads[object], method string, rest []string, apply func() (*object, error)) {
	s.begin()
	o, err := apply()
	var answer any
	if o != nil {
		answer = o
	}
	s.end(write{method: method, rest: rest, answer: answer, err: err})
}

func (f *fakeList) create(name string) (*object, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := fmt.Sprintf("%024d", 1_000_000+len(f.ids))
	f.ids = append(f.ids, id)
	f.names[id] = name
	return &object{id, name}, nil
}

func (f *fakeList) rename(id, name string) (*object, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.names[id] = name
	return &object{id, name}, nil
}

func (f *fakeList) delete(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.names, id)
	f.ids = slices.DeleteFunc(f.ids, func(v string) bool { return v == id })
	return nil
}

// TestSharedReads_writesUpdateWhatTheRunKnows: after the run's own writes
// (a create, an update, a delete), reads and finds answer as the tenant
// now is, from the pages already read: no page is read again.
func TestSharedReads_writesUpdateWhatTheRunKnows(t *testing.T) {
	f := newFakeList(150)
	s := f.reads().withNatural(func(o *object) string { return o.Name }, f.findByName)
	ctx := context.Background()
	for range directReads {
		if _, err := s.Find(ctx, "none"); err != nil {
			t.Fatal(err)
		}
	}
	if o, err := s.Find(ctx, "api-7"); err != nil || o == nil {
		t.Fatalf("find api-7: %v %v", o, err)
	}
	pages, gets := f.pages.Load(), f.gets.Load()
	ids := append([]string(nil), f.ids...)
	var created *object
	writeThrough(s, http.MethodPost, nil, func() (*object, error) {
		o, err := f.create("new")
		created = o
		return o, err
	})
	writeThrough(s, http.MethodPatch, []string{ids[10]}, func() (*object, error) { return f.rename(ids[10], "renamed") })
	writeThrough(s, http.MethodDelete, []string{ids[20]}, func() (*object, error) { return nil, f.delete(ids[20]) })
	for key, want := range map[string]string{"new": created.ID, "renamed": ids[10], "api-10": "", "api-20": "", "api-30": ids[30]} {
		o, err := s.Find(ctx, key)
		switch {
		case err != nil:
			t.Fatal(err)
		case want == "" && o != nil:
			t.Errorf("find %q: %+v, want none", key, o)
		case want != "" && (o == nil || o.ID != want):
			t.Errorf("find %q: %+v, want %s", key, o, want)
		}
	}
	all, err := s.All(ctx)
	if err != nil || len(all) != 150 {
		t.Fatalf("All: %d objects, %v; want 150", len(all), err)
	}
	if f.pages.Load() != pages || f.gets.Load() != gets {
		t.Fatalf("the writes cost %d pages and %d GETs more; want none", f.pages.Load()-pages, f.gets.Load()-gets)
	}
	// Reads past the direct ones are served from the walk, the writes in.
	readAll(t, s, ids[:2], 0)
	if got := readAll(t, s, []string{created.ID, ids[10]}, 0); got[created.ID] != "new" || got[ids[10]] != "renamed" {
		t.Fatalf("reads after the writes: %v", got)
	}
	if _, err := s.Read(ctx, ids[20]); !errors.Is(err, errNotFound) {
		t.Fatalf("read of the deleted object: %v, want the direct read's 404", err)
	}
}

// TestSharedReads_unknownOutcomeDropsThePages: a write whose outcome is not
// known (no answer) drops the pages, and the next walk reads them again; a
// refused write changes nothing.
func TestSharedReads_unknownOutcomeDropsThePages(t *testing.T) {
	f := newFakeList(50)
	s := f.reads().withNatural(func(o *object) string { return o.Name }, nil)
	ctx := context.Background()
	if _, err := s.Find(ctx, "api-1"); err != nil {
		t.Fatal(err)
	}
	s.begin()
	s.end(write{method: http.MethodPost, err: &mgmt.APIError{StatusCode: http.StatusConflict}})
	if _, err := s.Find(ctx, "api-1"); err != nil || f.pages.Load() != 1 {
		t.Fatalf("after a refused create: %d pages, %v; want 1", f.pages.Load(), err)
	}
	s.begin()
	if _, err := f.create("lost"); err != nil {
		t.Fatal(err)
	}
	s.end(write{method: http.MethodPost, err: errors.New("connection reset")})
	if o, err := s.Find(ctx, "lost"); err != nil || o == nil || f.pages.Load() != 2 {
		t.Fatalf("after a create whose answer was lost: %v %v, %d pages; want it found on a second walk", o, err, f.pages.Load())
	}
}

// TestSharedReads_walkAndWritesExcludeEachOther: a write that starts while
// pages are fetched waits for them, and a walk waits for the writes in
// flight: no page is read while a write of its type is under way.
func TestSharedReads_walkAndWritesExcludeEachOther(t *testing.T) {
	f := newFakeList(450)
	var inFlight, overlaps atomic.Int64
	s := newSharedReads(func(o *object) string { return o.ID },
		func(ctx context.Context, cursor string) (listPage[object], error) {
			if inFlight.Load() > 0 {
				overlaps.Add(1)
			}
			return f.page(ctx, cursor)
		}, f.get).withNatural(func(o *object) string { return o.Name }, nil)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := s.Find(context.Background(), fmt.Sprintf("api-%d", i)); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			writeThrough(s, http.MethodPost, nil, func() (*object, error) {
				inFlight.Add(1)
				defer inFlight.Add(-1)
				time.Sleep(time.Millisecond)
				return f.create(fmt.Sprintf("new-%d", i))
			})
		}()
	}
	wg.Wait()
	if overlaps.Load() != 0 {
		t.Fatalf("%d pages were read while a write was in flight", overlaps.Load())
	}
	if f.pages.Load() != 5 {
		t.Fatalf("%d pages, want one walk of 5", f.pages.Load())
	}
	all, err := s.All(context.Background())
	if err != nil || len(all) != 490 {
		t.Fatalf("All: %d objects, %v; want 490", len(all), err)
	}
}

// TestSharedReads_aListWithoutItsSize: a list that does not say its size
// (cursor pages) is walked page by page up to each read's allowance, and
// costs the same whatever the timing.
func TestSharedReads_aListWithoutItsSize(t *testing.T) {
	for _, tc := range []struct {
		objects, reads int
		pages, gets    int64
	}{
		{250, 10, 3, 2},    // the third read walks the 3 pages
		{1500, 3, 10, 3},   // the third read may fetch 10 pages: too few
		{1500, 12, 15, 7},  // reads 3 to 7 read directly, the 8th walks on to 15
		{1500, 100, 15, 7}, // the rest are served
	} {
		for run := range 3 {
			f := newFakeList(tc.objects)
			s := newSharedReads(func(o *object) string { return o.ID },
				func(ctx context.Context, cursor string) (listPage[object], error) {
					p, err := f.page(ctx, cursor)
					p.total = -1
					return p, err
				}, f.get)
			readAll(t, s, f.ids[:tc.reads], time.Duration(run)*time.Millisecond)
			if f.pages.Load() != tc.pages || f.gets.Load() != tc.gets {
				t.Fatalf("%d reads of %d objects, run %d: %d pages and %d GETs; want %d and %d",
					tc.reads, tc.objects, run, f.pages.Load(), f.gets.Load(), tc.pages, tc.gets)
			}
		}
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

// TestSharedReads_afterWrites: AfterWrites returns at once when no write of
// the type is in flight, and otherwise once none is (the end of one of two
// leaves it waiting), after which the run's list holds them: an object
// being deleted is listed before, not after, and no page is read again.
func TestSharedReads_afterWrites(t *testing.T) {
	f := newFakeList(3)
	s := f.reads()
	ctx := context.Background()
	if all, err := s.All(ctx); err != nil || len(all) != 3 {
		t.Fatalf("All: %v %v", all, err)
	}
	s.AfterWrites(ctx)
	id, other := f.ids[1], f.ids[2]
	s.begin() // the delete is sent
	s.begin() // and an update of another object
	wctx := testorder.NewContext(ctx)
	returned := make(chan struct{})
	go func() {
		s.AfterWrites(wctx)
		close(returned)
	}()
	select {
	case <-wctx.Waiting:
	case <-returned:
		t.Fatal("AfterWrites returned while two writes were in flight")
	}
	if all, err := s.All(ctx); err != nil || !slices.ContainsFunc(all, func(o object) bool { return o.ID == id }) {
		t.Fatalf("All during the delete: %v %v, want %s listed still", all, err, id)
	}
	s.end(write{method: http.MethodDelete, rest: []string{id}, err: f.delete(id)})
	select {
	case <-wctx.Waiting: // woken by the delete's end, it waits again
	case <-returned:
		t.Fatal("AfterWrites returned while the update was in flight")
	}
	s.end(write{method: http.MethodPatch, rest: []string{other}, answer: &object{other, "renamed"}})
	<-returned
	all, err := s.All(ctx)
	if err != nil || len(all) != 2 || slices.ContainsFunc(all, func(o object) bool { return o.ID == id }) {
		t.Fatalf("All after the writes: %v %v, want the two others", all, err)
	}
	if n := f.pages.Load(); n != 1 {
		t.Fatalf("%d pages read, want 1", n)
	}
}
