package tenant

import (
	"slices"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Binding is one action bound to a trigger.
type Binding struct {
	ID          string
	ActionID    string
	DisplayName string
	CreatedAt   string
	UpdatedAt   string
}

// EntityBound reports whether the trigger's actions are bound by the object
// that uses them (a token exchange profile binds its custom-token-exchange
// action), never by a trigger binding (trigger-bindings.md, [R]).
func EntityBound(trigger string) bool { return trigger == "custom-token-exchange" }

// BindingView is a binding as the API shows it, in the recorded key order:
// id, trigger_id, action, created_at, updated_at, display_name.
func (s *Tenant) BindingView(trigger string, b *Binding, now time.Time) wire.Ordered {
	var a wire.Ordered
	if act, ok := s.St.Actions[b.ActionID]; ok {
		a = act.BindingView(now)
	}
	return wire.Ordered{
		{"id", b.ID}, {"trigger_id", trigger}, {"action", a}, {"created_at", b.CreatedAt},
		{"updated_at", b.UpdatedAt}, {"display_name", b.DisplayName},
	}
}

// BindingView is the action inside a binding: its summary and its versions,
// the keys the recordings show there (trigger-bindings.md).
func (a *Action) BindingView(now time.Time) wire.Ordered {
	a.Settle(now)
	o := wire.Ordered{{"id", a.ID}, {"name", a.Name}, {"supported_triggers", a.Triggers}, {"created_at", a.CreatedAt}, {"updated_at", a.UpdatedAt}}
	if v := a.Current(); v != nil {
		o = append(o, wire.Ordered{{"current_version", wire.Ordered{
			{"id", v.ID}, {"code", v.Code}, {"runtime", v.Runtime}, {"status", "BUILT"}, {"number", v.Number},
			{"build_time", v.BuiltAt}, {"created_at", v.CreatedAt}, {"updated_at", v.UpdatedAt},
		}}}...)
	}
	if v := a.Deployed(); v != nil {
		o = append(o, wire.Ordered{{"deployed_version", v.View()}}...)
	}
	return append(o, wire.Ordered{{"all_changes_deployed", a.AllChangesDeployed}}...)
}

func (s *Tenant) BindingViews(trigger string, list []*Binding, now time.Time) []wire.Ordered {
	out := make([]wire.Ordered, 0, len(list))
	for _, b := range list {
		out = append(out, s.BindingView(trigger, b, now))
	}
	return out
}

// BoundTo lists the triggers the action is bound to.
func (s *Tenant) BoundTo(actionID string) []string {
	var out []string
	for _, t := range TriggerIDs {
		for _, b := range s.St.Bindings[t] {
			if b.ActionID == actionID {
				out = append(out, t)
			}
		}
	}
	return out
}

// Unbind removes the action from every trigger's bindings.
func (s *Tenant) Unbind(actionID string) {
	for t, list := range s.St.Bindings {
		if kept := slices.DeleteFunc(slices.Clone(list), func(b *Binding) bool { return b.ActionID == actionID }); len(kept) < len(list) {
			s.StoreBindings(t, kept)
		}
	}
}

// StoreBindings replaces the trigger's bindings by list and records the
// action ids of list in the trigger's history; under the lock.
func (s *Tenant) StoreBindings(trigger string, list []*Binding) {
	if len(list) == 0 {
		delete(s.St.Bindings, trigger)
	} else {
		s.St.Bindings[trigger] = list
	}
	ids := make([]string, 0, len(list))
	for _, b := range list {
		ids = append(ids, b.ActionID)
	}
	if s.bindingHistory == nil {
		s.bindingHistory = map[string][][]string{}
	}
	h := append(s.bindingHistory[trigger], ids)
	s.bindingHistory[trigger] = h[max(0, len(h)-maxBindingHistory):]
}

// maxBindingHistory is how many lists the history keeps per trigger, the
// latest: enough for any test, bounded for a long-running emulator.
const maxBindingHistory = 1000

// BindingHistory returns, for the trigger, the action ids of every list of
// bindings it held since the emulator started (the latest 1000), each in
// execution order, oldest first: one per PATCH of its bindings and per
// delete of a bound action that unbound it; under the lock.
func (s *Tenant) BindingHistory(trigger string) [][]string {
	out := make([][]string, 0, len(s.bindingHistory[trigger]))
	for _, ids := range s.bindingHistory[trigger] {
		out = append(out, slices.Clone(ids))
	}
	return out
}
