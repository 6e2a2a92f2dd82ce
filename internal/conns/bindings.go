package conns

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TriggerBindings is everything about trigger bindings that spans resources,
// for one run:
//
//   - Read shares one read of a trigger's bindings among the refreshes,
//     plan-time checks and refused deletes that need it, until a write of
//     actions or bindings that the tenant does not refuse;
//   - Claim records what each tenant_trigger_actions of the configuration
//     being planned binds to its trigger, Release that one gives its trigger
//     up (its destroy, or the old trigger of a replacement), and Destroying
//     that the plan destroys an action bound to a trigger.
//
// Terraform applies the destroy of an action before the update of the
// bindings that listed it (the bindings' state depends on the action), so
// the tenant would refuse the delete (409) unless the action is unbound
// first. Terraform plans the two in no set order (with count or for_each,
// every instance of the actions plans before the bindings that reference
// them, the destroyed ones included), and each plan reaches the apply only
// through its own planned change, so of the destroy's plan and the
// bindings' plan the one that plans second acts, without waiting for the
// other:
//
//   - the destroy's plan, when the bindings planned before and drop the
//     action, records in its private data that the delete unbinds it;
//   - the bindings' plan, when destroys of actions it drops planned before,
//     plans its own replacement: Terraform applies the destroy of the
//     bindings before the destroy of the actions their state depends on,
//     so that destroy, which unbinds exactly those actions (its private
//     data), comes before their deletes, and the create then binds the new
//     list; the trigger runs the other actions throughout.
//
// An action bound to a trigger that no bindings of this configuration claim
// is never unbound: its delete meets the tenant's refusal.
type TriggerBindings struct {
	api *mgmt.Client

	mu        sync.Mutex
	reads     map[string]*bindingsRead
	planned   map[string]*plannedBindings
	released  map[string]bool   // the triggers a tenant_trigger_actions of this plan gives up
	destroyed map[string]string // action id -> the trigger it is bound to, for the actions this plan destroys
}

type bindingsRead struct {
	done     chan struct{}
	bindings []mgmt.TriggerBinding
	err      error
}

// PlannedBindings is what the tenant_trigger_actions of a trigger plans to
// bind: the known action ids in execution order, and whether every id is
// known (an action this run creates has an id only after apply).
type PlannedBindings struct {
	IDs      []string
	Complete bool
}

// Binds reports whether the planned bindings keep the action id, as far as
// they are known: an action this run destroys never gets a new id, so an
// unknown id is not it.
func (p PlannedBindings) Binds(id string) bool { return slices.Contains(p.IDs, id) }

type plannedBindings struct {
	PlannedBindings
	lists map[string]bool // the distinct lists claimed, as text
}

func newTriggerBindings(api *mgmt.Client) *TriggerBindings {
	return &TriggerBindings{
		api: api, reads: map[string]*bindingsRead{}, planned: map[string]*plannedBindings{},
		released: map[string]bool{}, destroyed: map[string]string{},
	}
}

// Read returns the trigger's bindings, read once in this run and shared
// until a write of actions or bindings ends (see track); a failed read is
// not shared.
func (b *TriggerBindings) Read(ctx context.Context, trigger string) ([]mgmt.TriggerBinding, error) {
	b.mu.Lock()
	r, ok := b.reads[trigger]
	if !ok {
		r = &bindingsRead{done: make(chan struct{})}
		b.reads[trigger] = r
		b.mu.Unlock()
		r.bindings, r.err = b.api.TriggerBindings(ctx, trigger)
		if r.err != nil {
			b.mu.Lock()
			if b.reads[trigger] == r {
				delete(b.reads, trigger)
			}
			b.mu.Unlock()
		}
		close(r.done)
		return r.bindings, r.err
	}
	b.mu.Unlock()
	select {
	case <-r.done:
		if r.err != nil && ctx.Err() == nil {
			return b.Read(ctx, trigger)
		}
		return r.bindings, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// track is the tracker of the writes of actions and bindings (a binding
// shows its action as it is): what was read is dropped when the write has
// ended, unless the tenant refused it (the delete of a bound action: 409),
// which changed nothing, so the errors of refused deletes share one read.
// A read during the write may show the bindings before it or after: the
// two are concurrent, and the read does not outlast the write's end.
func (b *TriggerBindings) track(write) func(write) {
	return func(w write) {
		if w.err == nil || !refused(w.err) {
			b.forget()
		}
	}
}

// forget drops what was read.
func (b *TriggerBindings) forget() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reads = map[string]*bindingsRead{}
}

// Claimed is what a claim of a trigger learns from the plans before it.
type Claimed struct {
	// Claims is how many different lists claim the trigger, this one
	// included: two would each undo the other on every apply. Claims of the
	// same list count once, since Terraform plans a replaced instance twice,
	// as an update and as a create.
	Claims int
	// Listed are the actions of the list that this plan destroys, as far as
	// they planned before: the list must drop them.
	Listed []string
	// Unbind are the actions bound before (bound) that the list drops and
	// this plan destroys, as far as they planned before: the bindings must
	// unbind them before their deletes.
	Unbind []string
	// Released says that a resource of this plan gave the trigger up
	// before (see Release).
	Released bool
}

// Claim records that a tenant_trigger_actions of the configuration being
// planned binds planned to trigger, where bound were bound before, and
// returns what the plans before it say (see Claimed).
func (b *TriggerBindings) Claim(trigger string, planned PlannedBindings, bound []string) Claimed {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.planned[trigger]
	if !ok {
		p = &plannedBindings{lists: map[string]bool{}}
		b.planned[trigger] = p
	}
	p.PlannedBindings = planned
	p.lists[strings.Join(planned.IDs, ",")+"|"+strconv.FormatBool(planned.Complete)] = true
	c := Claimed{Claims: len(p.lists), Released: b.released[trigger]}
	for _, id := range planned.IDs {
		if _, ok := b.destroyed[id]; ok {
			c.Listed = append(c.Listed, id)
		}
	}
	for _, id := range bound {
		if b.destroyed[id] == trigger && !planned.Binds(id) {
			c.Unbind = append(c.Unbind, id)
		}
	}
	return c
}

// Release records that a tenant_trigger_actions of this plan gives trigger
// up: its destroy unbinds every action of the trigger. That is no list of
// the trigger's (Destroying answers an empty one only when no resource
// claims the trigger). It returns whether another resource of this
// configuration claimed the trigger before: Terraform orders nothing
// between that destroy and the other's create or update, so the trigger
// could end with nothing bound. Of a release and a claim of one trigger,
// exactly one sees the other: the one that plans second.
func (b *TriggerBindings) Release(trigger string) (claimed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.released[trigger] = true
	_, claimed = b.planned[trigger]
	return claimed
}

// Destroying records that this plan destroys the action id, bound to
// trigger, for the bindings that plan after it, and returns what the
// bindings of trigger planned before, if any did: of the two, exactly one
// sees the other.
func (b *TriggerBindings) Destroying(id, trigger string) (planned PlannedBindings, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.destroyed[id] = trigger
	if p, ok := b.planned[trigger]; ok {
		return p.PlannedBindings, true
	}
	if b.released[trigger] {
		return PlannedBindings{Complete: true}, true
	}
	return PlannedBindings{}, false
}
