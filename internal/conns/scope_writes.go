package conns

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// DefaultScopeWait is how long an assignment of role permissions waits for
// the run to write a scope the API does not define yet.
const DefaultScopeWait = 60 * time.Second

// ScopeWrites orders, within one apply, the assignment of a permission
// after the write of the API scope it names. An apply that adds a scope to
// an API and the permission to a role, with the API named by its literal
// identifier (as generated configuration does), gives Terraform no order
// between the two: the assignment may run first, or the API's write may
// wait for its own dependencies. The assignment then waits for the API
// writes in flight and, when the API still does not define the scope, for
// the run's next API writes, up to Wait, before it reports the tenant's
// refusal. It does not wait when the API's resource of this run has planned
// without the scope (Terraform plans each resource again, in the apply's
// process, just before it applies it).
type ScopeWrites struct {
	// Wait bounds how long an assignment waits for a missing scope.
	Wait time.Duration

	mu      sync.Mutex
	active  int           // API writes in flight
	changed chan struct{} // closed, and replaced, at the end of each write
}

func newScopeWrites() *ScopeWrites {
	return &ScopeWrites{Wait: DefaultScopeWait, changed: make(chan struct{})}
}

// Begin records an API write in flight; the returned function ends it.
func (w *ScopeWrites) Begin() (end func()) {
	w.mu.Lock()
	w.active++
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			w.active--
			close(w.changed)
			w.changed = make(chan struct{})
			w.mu.Unlock()
		})
	}
}

// idle waits until no API write is in flight.
func (w *ScopeWrites) idle(ctx context.Context) error {
	for {
		w.mu.Lock()
		active, changed := w.active, w.changed
		w.mu.Unlock()
		if active == 0 {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// mark returns what after waits for: the API writes that end from now on.
func (w *ScopeWrites) mark() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

// after waits until an API write ends after mark returned since, and
// reports whether one did before deadline.
func (w *ScopeWrites) after(ctx context.Context, since <-chan struct{}, deadline time.Time) bool {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-since:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

// track marks an API's create or update in flight (a scope may be on its
// way) until it ends.
func (w *ScopeWrites) track(wr write) func(write) {
	if wr.method != http.MethodPost && wr.method != http.MethodPatch {
		return func(write) {}
	}
	end := w.Begin()
	return func(write) { end() }
}
