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
		list = slices.DeleteFunc(list, func(b *Binding) bool { return b.ActionID == actionID })
		if len(list) == 0 {
			delete(s.St.Bindings, t)
		} else {
			s.St.Bindings[t] = list
		}
	}
}
