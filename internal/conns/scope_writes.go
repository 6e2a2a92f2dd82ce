package conns

import (
	"context"
	"sync"
	"time"
)

// DefaultScopeWait is how long an assignment of role permissions waits for
// the run to write a scope the API does not define yet, when an API
// resource of the run has planned that scope; DefaultScopeGrace when none
// has (yet): a scope that nothing in the run writes fails in seconds.
const (
	DefaultScopeWait  = 60 * time.Second
	DefaultScopeGrace = 5 * time.Second
)

// ScopeWrites orders, within one apply, the assignment of a permission
// after the write of the API scope it names. An apply that adds a scope to
// an API and the permission to a role, with the API named by its literal
// identifier (as generated configuration does), gives Terraform no order
// between the two: the assignment may run first. It then waits for API
// writes in flight, and when the API still does not define the scope, for
// the run's next API write: up to Wait when an API resource of the run has
// planned the scope (Terraform plans each resource again just before it
// applies it), else up to Grace, before it reports the tenant's refusal.
type ScopeWrites struct {
	// Wait and Grace bound how long an assignment waits for a missing
	// scope.
	Wait, Grace time.Duration

	mu      sync.Mutex
	active  int           // API writes in flight
	changed chan struct{} // closed, and replaced, at the end of each write
}

func newScopeWrites() *ScopeWrites {
	return &ScopeWrites{Wait: DefaultScopeWait, Grace: DefaultScopeGrace, changed: make(chan struct{})}
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

// next waits for the end of the next API write, and reports whether one
// ended before deadline.
func (w *ScopeWrites) next(ctx context.Context, deadline time.Time) bool {
	w.mu.Lock()
	changed := w.changed
	w.mu.Unlock()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-changed:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}
