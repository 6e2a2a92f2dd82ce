package conns

import (
	"context"
	"sync"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// ActionReads shares, within a run, one GET of each action among the
// checks that read it (many profiles of one action cost one read), until a
// write to that action. It reads actions one by one, not from list pages:
// the reference does not say that list items carry an action's deployed
// version.
type ActionReads struct {
	api   *mgmt.Client
	mu    sync.Mutex
	reads map[string]*actionRead
}

type actionRead struct {
	done   chan struct{}
	action *mgmt.Action
	err    error
}

func newActionReads(api *mgmt.Client) *ActionReads {
	return &ActionReads{api: api, reads: map[string]*actionRead{}}
}

// Read returns the action id, read once in this run; a failed read is not
// shared.
func (a *ActionReads) Read(ctx context.Context, id string) (*mgmt.Action, error) {
	a.mu.Lock()
	r, ok := a.reads[id]
	if !ok {
		r = &actionRead{done: make(chan struct{})}
		a.reads[id] = r
		a.mu.Unlock()
		r.action, r.err = a.api.GetAction(ctx, id)
		if r.err != nil && !mgmt.IsNotFound(r.err) {
			a.mu.Lock()
			if a.reads[id] == r { // a write may have dropped it, and a newer read taken its place
				delete(a.reads, id)
			}
			a.mu.Unlock()
		}
		close(r.done)
		return r.action, r.err
	}
	a.mu.Unlock()
	select {
	case <-r.done:
		if r.err != nil && !mgmt.IsNotFound(r.err) && ctx.Err() == nil {
			return a.Read(ctx, id)
		}
		return r.action, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// track drops the read of the action a write names, before the write and
// when it has ended (a deploy changes its deployed version); a create names
// none.
func (a *ActionReads) track(w write) func(write) {
	if len(w.rest) == 0 {
		return func(write) {}
	}
	id := w.rest[0]
	a.forget(id)
	return func(write) { a.forget(id) }
}

// forget makes the next read of the action id read it anew.
func (a *ActionReads) forget(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.reads, id)
}
