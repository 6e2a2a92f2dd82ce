// Package emutest holds what the emulator's tests share: an HTTP service
// for actions' code to call, a log tests read while the emulator writes
// it, and a look at processes.
package emutest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Upstream is an HTTP service for the tests of actions' code to call: it
// holds requests until the test lets them go, or until as many are there
// at once as a barrier needs, and records what happened, so that a test
// waits for an event instead of a time.
//
// It answers /hold/<name> once the test releases the name, and
// /barrier/<name>?n=N once N requests of the name are there at the same
// time. It records each request's arrival, and the end of each whose
// caller went away before the answer.
type Upstream struct {
	*httptest.Server
	mu       sync.Mutex
	arrivals map[string]int
	gone     map[string]int
	released map[string]chan struct{}
	changed  chan struct{}
}

// NewUpstream starts an Upstream that stops, every request released, when
// the test ends.
func NewUpstream(t testing.TB) *Upstream {
	t.Helper()
	u := &Upstream{arrivals: map[string]int{}, gone: map[string]int{}, released: map[string]chan struct{}{}, changed: make(chan struct{})}
	u.Server = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(func() {
		u.mu.Lock()
		for _, ch := range u.released {
			select {
			case <-ch:
			default:
				close(ch)
			}
		}
		u.mu.Unlock()
		u.Close()
	})
	return u
}

func (u *Upstream) gate(name string) chan struct{} {
	if u.released[name] == nil {
		u.released[name] = make(chan struct{})
	}
	return u.released[name]
}

// record notes an event and wakes whoever waits for one.
func (u *Upstream) record(m map[string]int, name string) int {
	m[name]++
	close(u.changed)
	u.changed = make(chan struct{})
	return m[name]
}

func (u *Upstream) serve(w http.ResponseWriter, r *http.Request) {
	kind, name, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	u.mu.Lock()
	n := u.record(u.arrivals, name)
	gate := u.gate(name)
	if want, _ := strconv.Atoi(r.URL.Query().Get("n")); kind == "barrier" && n == want {
		close(gate)
	}
	u.mu.Unlock()
	select {
	case <-gate:
		fmt.Fprint(w, "released")
	case <-r.Context().Done():
		u.mu.Lock()
		u.record(u.gone, name)
		u.mu.Unlock()
	}
}

// Release lets the requests held under name answer, and those to come.
func (u *Upstream) Release(name string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	select {
	case <-u.gate(name):
	default:
		close(u.gate(name))
	}
}

// WaitFor waits until cond holds of the records (arrivals and dropped
// requests, by name); the bound only ends a test that fails.
func (u *Upstream) WaitFor(t testing.TB, what string, cond func(arrivals, gone map[string]int) bool) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		u.mu.Lock()
		ok, changed := cond(u.arrivals, u.gone), u.changed
		u.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// Arrived waits until n requests of name have come.
func (u *Upstream) Arrived(t testing.TB, name string, n int) {
	t.Helper()
	u.WaitFor(t, fmt.Sprintf("%d requests of %s", n, name), func(a, _ map[string]int) bool { return a[name] >= n })
}

// Dropped waits until n requests of name have been dropped by their caller.
func (u *Upstream) Dropped(t testing.TB, name string, n int) {
	t.Helper()
	u.WaitFor(t, fmt.Sprintf("%d dropped requests of %s", n, name), func(_, g map[string]int) bool { return g[name] >= n })
}

// Fetch is JavaScript that calls the path and waits for the answer.
func (u *Upstream) Fetch(path string) string {
	return fmt.Sprintf("await (await fetch(%q)).text();", u.URL+path)
}
