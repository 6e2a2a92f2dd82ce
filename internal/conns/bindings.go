package conns

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// DefaultBindingPlanWait is how long the plan of a bound action's destroy
// waits for the plan of its trigger's bindings.
const DefaultBindingPlanWait = 20 * time.Second

// TriggerBindings is everything about trigger bindings that spans resources,
// for one run:
//
//   - Read shares one read of a trigger's bindings among the refreshes,
//     plan-time checks and refused deletes that need it, until a write of
//     actions or bindings that the tenant does not refuse;
//   - Claim records what each tenant_trigger_actions of the configuration
//     being planned binds to its trigger, Release that one gives its trigger
//     up (its destroy, or the old trigger of a replacement), and Await lets
//     the plan of an action's destroy wait for either.
//
// Terraform destroys an action before it updates the bindings that listed
// it (the update depends on the action, whose destroy comes first), so the
// destroy of a bound action meets the tenant's refusal unless it unbinds
// the action itself. It may do so only when this configuration's bindings
// of that trigger drop the action, which only the plan can tell: the plan
// of the destroy waits for the bindings' plan (Terraform plans the two in
// no set order) and records the answer in the destroy's planned private
// data, which the apply hands back.
type TriggerBindings struct {
	// PlanWait bounds how long Await waits for a trigger's bindings to plan.
	PlanWait time.Duration

	api *mgmt.Client

	mu        sync.Mutex
	reads     map[string]*bindingsRead
	planned   map[string]*plannedBindings
	released  map[string]bool   // the triggers a tenant_trigger_actions of this plan gives up
	destroyed map[string]string // action id -> the trigger it is bound to, for the actions this plan destroys
	changed   chan struct{}     // closed, and replaced, at each Claim
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
		PlanWait: DefaultBindingPlanWait, api: api, reads: map[string]*bindingsRead{}, planned: map[string]*plannedBindings{},
		released: map[string]bool{}, destroyed: map[string]string{}, changed: make(chan struct{}),
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

// Claim records that a tenant_trigger_actions of the configuration being
// planned binds planned to trigger, and wakes the plans waiting for it. It
// returns how many different lists claim the trigger, this one included
// (two would each undo the other on every apply; claims of the same list
// count once, since Terraform plans a replaced instance twice, as an update
// and as a create), the actions of planned that this plan destroys, as far
// as they planned before, and whether a resource of this plan gave the
// trigger up before (see Release).
func (b *TriggerBindings) Claim(trigger string, planned PlannedBindings) (claims int, destroyed []string, released bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.planned[trigger]
	if !ok {
		p = &plannedBindings{lists: map[string]bool{}}
		b.planned[trigger] = p
	}
	p.PlannedBindings = planned
	p.lists[strings.Join(planned.IDs, ",")+"|"+strconv.FormatBool(planned.Complete)] = true
	for _, id := range planned.IDs {
		if _, ok := b.destroyed[id]; ok {
			destroyed = append(destroyed, id)
		}
	}
	b.wake()
	return len(p.lists), destroyed, b.released[trigger]
}

// Release records that a tenant_trigger_actions of this plan gives trigger
// up: its destroy unbinds every action of the trigger. That is no list of
// the trigger's (Await answers an empty one only when no resource claims
// the trigger). It returns whether another resource of this configuration
// claimed the trigger before: Terraform orders nothing between that
// destroy and the other's create or update, so the trigger could end with
// nothing bound. Of a release and a claim of one trigger, exactly one sees
// the other: the one that plans second.
func (b *TriggerBindings) Release(trigger string) (claimed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.released[trigger] = true
	b.wake()
	_, claimed = b.planned[trigger]
	return claimed
}

// wake wakes the plans waiting in Await; b.mu is held.
func (b *TriggerBindings) wake() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// Await returns what this configuration's bindings of trigger plan (an
// empty list when a resource gives the trigger up and none claims it),
// waiting up to PlanWait for them to plan; ok is false when none did, so
// the configuration holds no tenant_trigger_actions of that trigger (or
// its plan came later than the wait).
func (b *TriggerBindings) Await(ctx context.Context, trigger string) (planned PlannedBindings, ok bool) {
	t := time.NewTimer(b.PlanWait)
	defer t.Stop()
	for {
		b.mu.Lock()
		planned, found := b.plannedLocked(trigger)
		changed := b.changed
		b.mu.Unlock()
		if found {
			return planned, true
		}
		select {
		case <-changed:
		case <-t.C:
			return PlannedBindings{}, false
		case <-ctx.Done():
			return PlannedBindings{}, false
		}
	}
}

// Destroying records that this plan destroys the action id, bound to
// trigger, for the bindings that plan after it, and returns what the
// bindings of trigger planned before, if any did: exactly one of the two
// sides sees the other.
func (b *TriggerBindings) Destroying(id, trigger string) (planned PlannedBindings, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.destroyed[id] = trigger
	return b.plannedLocked(trigger)
}

// plannedLocked is what the bindings of trigger plan: the list a resource
// claims, else an empty one when a resource gives the trigger up; ok is
// false when neither planned yet. b.mu is held.
func (b *TriggerBindings) plannedLocked(trigger string) (planned PlannedBindings, ok bool) {
	if p, ok := b.planned[trigger]; ok {
		return p.PlannedBindings, true
	}
	if b.released[trigger] {
		return PlannedBindings{Complete: true}, true
	}
	return PlannedBindings{}, false
}
