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
//     actions or bindings that the tenant does not refuse; AfterWrites lets
//     a refused delete read after the trigger's writes in flight
//     (Writing counts a change that takes several);
//   - Claim records what each tenant_trigger_actions of the configuration
//     being planned binds to its trigger, Release that an object of one is
//     destroyed, Destroying that the plan destroys an action bound to a
//     trigger, Refreshed that an object of a trigger was read, and Wrote
//     that a create or update of a trigger's bindings was applied.
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
//     list; the trigger runs the other actions throughout. With
//     create_before_destroy the create comes first and binds the new list,
//     and the destroy of the old object, which Terraform plans again
//     during the apply, finds the trigger written (Wrote) and leaves it.
//
// An object of a trigger that another object in the state claims (the old
// object of a create_before_destroy replacement that an interrupted apply
// left behind, deposed) is superseded: its destroy leaves the trigger to
// the live one. Terraform plans such a destroy again during the apply,
// after the live one's update, from what its refresh recorded; so either
// its refresh sees the live one's claim (Refreshed), or the live one's
// claim sees it (Claimed.Rewrite) and plans an update, which the apply
// runs before that destroy.
//
// An action bound to a trigger that no bindings of this configuration claim
// is never unbound: its delete meets the tenant's refusal.
type TriggerBindings struct {
	api *mgmt.Client

	mu        sync.Mutex
	reads     map[string]*bindingsRead
	triggers  map[string]*triggerPlan
	destroyed map[string]string  // action id -> the trigger it is bound to, for the actions this plan destroys
	writing   map[string]*writes // trigger -> its bindings' writes in flight
}

// writes are the writes of one trigger's bindings in flight; done is
// closed when the last ends.
type writes struct {
	n    int
	done chan struct{}
}

// triggerPlan is what the run knows of one trigger's objects.
type triggerPlan struct {
	planned  *PlannedBindings // the list claimed last, nil when none
	lists    map[string]bool  // the distinct lists claimed, as text
	existing int              // claims by objects in the state (updates, or none)
	creates  int              // claims by objects not in the state yet
	released bool             // an object of the trigger is destroyed
	read     int              // objects of the trigger refreshed
	written  bool             // a create or update of the trigger was applied
}

func (b *TriggerBindings) trigger(t string) *triggerPlan {
	p, ok := b.triggers[t]
	if !ok {
		p = &triggerPlan{lists: map[string]bool{}}
		b.triggers[t] = p
	}
	return p
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

func newTriggerBindings(api *mgmt.Client) *TriggerBindings {
	return &TriggerBindings{api: api, reads: map[string]*bindingsRead{}, triggers: map[string]*triggerPlan{}, destroyed: map[string]string{}, writing: map[string]*writes{}}
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

// trackTrigger is the tracker of the writes of a trigger's bindings: as
// track, and it counts them in flight for AfterWrites.
func (b *TriggerBindings) trackTrigger(w write) func(write) {
	if len(w.rest) == 0 {
		return b.track(w)
	}
	done := b.Writing(w.rest[0])
	end := b.track(w)
	return func(w write) {
		end(w)
		done()
	}
}

// Writing counts a write of the trigger's bindings in flight, for
// AfterWrites, until done is called: each request that writes them counts
// itself; a resource whose one change takes several requests counts the
// whole of it, so that AfterWrites does not return between two of them.
func (b *TriggerBindings) Writing(trigger string) (done func()) {
	b.mu.Lock()
	ws, ok := b.writing[trigger]
	if !ok {
		ws = &writes{done: make(chan struct{})}
		b.writing[trigger] = ws
	}
	ws.n++
	b.mu.Unlock()
	return sync.OnceFunc(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if ws.n--; ws.n == 0 {
			delete(b.writing, trigger)
			close(ws.done)
		}
	})
}

// AfterWrites returns once no write of the trigger's bindings is in flight
// (at once when none is: each request counts, and the whole of a change
// that takes several, Writing), so that a Read after it shows them. Writes
// that start while it waits extend the wait; each ends by itself
// (answered, or failed after the client's retries). It cannot wait for a
// resource Terraform has not started. When ctx ends it returns at once.
func (b *TriggerBindings) AfterWrites(ctx context.Context, trigger string) {
	b.mu.Lock()
	ws, ok := b.writing[trigger]
	b.mu.Unlock()
	if !ok {
		return
	}
	select {
	case <-ws.done:
	case <-ctx.Done():
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
	// Twice says that two resources claim the trigger: different lists
	// (each would undo the other on every apply), two objects in the
	// state, or two creates. A replaced instance claims twice, as an
	// update and as a create (Terraform plans it so), which is one.
	Twice bool
	// Listed are the actions of the list that this plan destroys, as far as
	// they planned before: the list must drop them.
	Listed []string
	// Unbind are the actions bound before (bound) that the list drops and
	// this plan destroys, as far as they planned before: the bindings must
	// unbind them before their deletes.
	Unbind []string
	// HandedOver says that the claim creates the trigger's bindings while
	// another resource's destroy gives them up (a rename without a moved
	// block): Terraform orders nothing between the two.
	HandedOver bool
	// Rewrite says that another object of the trigger in the state (a
	// deposed one, or a second resource removed from the configuration)
	// was refreshed or is destroyed before this claim by an object in the
	// state: the claim must plan an update, so that the apply writes its
	// list before that destroy, which then leaves the trigger alone.
	Rewrite bool
}

// Claim records that a tenant_trigger_actions of the configuration being
// planned binds planned to trigger, where bound were bound before, and
// existing says whether its object is in the state (an update or no
// change, not a create); it returns what the plans before it say (see
// Claimed).
func (b *TriggerBindings) Claim(trigger string, planned PlannedBindings, bound []string, existing bool) Claimed {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.trigger(trigger)
	p.planned = &planned
	p.lists[strings.Join(planned.IDs, ",")+"|"+strconv.FormatBool(planned.Complete)] = true
	if existing {
		p.existing++
	} else {
		p.creates++
	}
	c := Claimed{
		Twice:      len(p.lists) > 1 || p.existing > 1 || p.creates > 1,
		HandedOver: p.released && p.existing == 0,
		Rewrite:    existing && (p.released || p.read > 1),
	}
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

// Release records that an object of a tenant_trigger_actions of trigger is
// destroyed, which unbinds every action of the trigger unless superseded.
// It is superseded when an object in the state claims the trigger, or a
// create or update of the trigger was applied in this run (the destroy of
// a create_before_destroy replacement's old object, planned during the
// apply after the create): the other object is the trigger's, and the
// destroy must leave the trigger alone. handedOver says that a resource
// that creates the trigger's bindings claimed it before, and none in the
// state (a rename without a moved block): Terraform orders nothing between
// that create and this destroy. Of a release and a claim of one trigger,
// the one that plans second sees the other.
func (b *TriggerBindings) Release(trigger string) (superseded, handedOver bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.trigger(trigger)
	p.released = true
	superseded = p.existing > 0 || p.written
	return superseded, !superseded && p.creates > 0
}

// Refreshed records that an object of a tenant_trigger_actions of trigger
// was read, and reports whether it is superseded: an object in the state
// claimed the trigger before this read, so this is another object of the
// trigger (each object is read before its own claim).
func (b *TriggerBindings) Refreshed(trigger string) (superseded bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.trigger(trigger)
	p.read++
	return p.existing > 0
}

// Wrote records that a create or update of the trigger's bindings was
// applied.
func (b *TriggerBindings) Wrote(trigger string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.trigger(trigger).written = true
}

// Written reports whether a create or update of the trigger's bindings was
// applied in this run.
func (b *TriggerBindings) Written(trigger string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.trigger(trigger).written
}

// Destroying records that this plan destroys the action id, bound to
// trigger, for the bindings that plan after it, and returns what the
// bindings of trigger planned before, if any did: of the two, exactly one
// sees the other. An object of the trigger destroyed with none claiming it
// unbinds every action.
func (b *TriggerBindings) Destroying(id, trigger string) (planned PlannedBindings, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.destroyed[id] = trigger
	p := b.trigger(trigger)
	switch {
	case p.planned != nil:
		return *p.planned, true
	case p.released:
		return PlannedBindings{Complete: true}, true
	}
	return PlannedBindings{}, false
}
