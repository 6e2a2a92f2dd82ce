package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Trigger bindings (trigger-bindings.md): each trigger holds an ordered
// list of deployed actions, its execution order. A PATCH replaces the whole
// list; GET pages it.

// binding is one action bound to a trigger.
type binding struct {
	ID          string
	ActionID    string
	DisplayName string
	CreatedAt   string
	UpdatedAt   string
}

// maxBindings is how many actions a trigger may have bound: "Each flow may
// have a maximum of 20 active bound Actions" (the Actions limitations page,
// https://auth0.com/docs/customize/actions/limitations, [R]). How the tenant
// refuses more is not documented ([?]): the emulator assumes the Management
// API's payload validation answer (reference §0.3), the message a schema's
// maxItems gives.
const maxBindings = 20

// entityBound reports whether the trigger's actions are bound by the object
// that uses them (a token exchange profile binds its custom-token-exchange
// action), never by a trigger binding (trigger-bindings.md, [R]).
func entityBound(trigger string) bool { return trigger == "custom-token-exchange" }

// triggerParam returns the {trigger} path value, one of the triggers an
// action may support.
//
// Assumption (trigger-bindings.md is silent): another trigger id is a path
// validation error, worded as the API words path errors (reference §0.3).
func triggerParam(r *http.Request) (string, *apiErr) {
	t := r.PathValue("trigger")
	if !slices.Contains(triggerIDs, t) {
		return "", newErr(400, "Path validation error: 'No enum match for: \""+t+"\"' on property triggerId (An actions extensibility point).", "invalid_uri")
	}
	return t, nil
}

// bindingView is a binding as the API shows it, in the recorded key order:
// id, trigger_id, action, created_at, updated_at, display_name.
func (s *Server) bindingView(trigger string, b *binding, now time.Time) ordered {
	var a ordered
	if act, ok := s.st.Actions[b.ActionID]; ok {
		a = act.bindingView(now)
	}
	return ordered{
		{"id", b.ID}, {"trigger_id", trigger}, {"action", a}, {"created_at", b.CreatedAt},
		{"updated_at", b.UpdatedAt}, {"display_name", b.DisplayName},
	}
}

// bindingView is the action inside a binding: its summary and its versions,
// the keys the recordings show there (trigger-bindings.md).
func (a *action) bindingView(now time.Time) ordered {
	a.settle(now)
	o := ordered{{"id", a.ID}, {"name", a.Name}, {"supported_triggers", a.Triggers}, {"created_at", a.CreatedAt}, {"updated_at", a.UpdatedAt}}
	if v := a.current(); v != nil {
		o = append(o, ordered{{"current_version", ordered{
			{"id", v.ID}, {"code", v.Code}, {"runtime", v.Runtime}, {"status", "BUILT"}, {"number", v.Number},
			{"build_time", v.BuiltAt}, {"created_at", v.CreatedAt}, {"updated_at", v.UpdatedAt},
		}}}...)
	}
	if v := a.deployed(); v != nil {
		o = append(o, ordered{{"deployed_version", v.view()}}...)
	}
	return append(o, ordered{{"all_changes_deployed", a.AllChangesDeployed}}...)
}

func (s *Server) bindingViews(trigger string, list []*binding, now time.Time) []ordered {
	out := make([]ordered, 0, len(list))
	for _, b := range list {
		out = append(out, s.bindingView(trigger, b, now))
	}
	return out
}

// triggerBindings pages a trigger's bindings in execution order: page and
// per_page (default 20, 1–100, the published specification's default).
// The answer holds bindings and per_page; total (the whole count) when the
// page holds bindings, and page when it is not the first, as the
// incumbent provider's recordings show them (TestAccTriggerActions.yaml:
// page 0 of two bindings {"bindings":[…],"total":2,"per_page":100}, page 1
// {"bindings":[],"page":1,"per_page":100}, no bindings
// {"bindings":[],"per_page":100}).
//
// Assumption (trigger-bindings.md is silent): a custom-token-exchange
// trigger has no trigger bindings, its actions being bound by their
// profiles; and a page past the first that holds bindings shows page
// before total.
func (s *Server) triggerBindings(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	trigger, e := triggerParam(r)
	if e != nil {
		return e
	}
	page, perPage, _, e := offsetPage(r)
	if e != nil {
		return e
	}
	if r.URL.Query().Get("per_page") == "" {
		perPage = 20
	}
	all := s.bindingViews(trigger, s.st.Bindings[trigger], time.Now())
	start, end := window(len(all), page, perPage)
	out := ordered{{"bindings", all[start:end]}}
	if page > 0 {
		out = append(out, ordered{{"page", page}}...)
	}
	if end > start {
		out = append(out, ordered{{"total", len(all)}}...)
	}
	writeJSON(w, 200, append(out, ordered{{"per_page", perPage}}...))
	return nil
}

// updateTriggerBindings replaces the trigger's bindings by the list sent,
// whose order is the execution order, and answers the whole new list.
//
// Assumptions (trigger-bindings.md leaves them open):
//   - each item is {ref: {type, value}, display_name, secrets} (the
//     specification's item); ref.type is action_id, action_name (the
//     default) or binding_id (a binding of this trigger), and ref.value
//     names an existing action: otherwise 404 "That action does not exist."
//     (the action's own 404, reference §0.4);
//   - display_name defaults to the action's name;
//   - an action is bound once: a second item for it is 400 "Payload
//     validation error: 'Array items are not unique (indexes i and j)' on
//     property bindings.";
//   - an action that does not support the trigger is 400 "The action <id>
//     does not support the trigger <trigger>." (no errorCode);
//   - an action without a deployed version is 400 "action not deployed"
//     (the reported text, [R]);
//   - the bindings of custom-token-exchange are its profiles': a PATCH is
//     400 "The custom-token-exchange trigger is entity-bound: its actions
//     are bound by their token exchange profiles.";
//   - an action that stays bound keeps its binding's id and created_at;
//     updated_at changes when its display name does;
//   - more than maxBindings items is 400 "Payload validation error: 'Array
//     is too long (21), maximum 20' on property bindings." (below).
func (s *Server) updateTriggerBindings(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	trigger, e := triggerParam(r)
	if e != nil {
		return e
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	o := b.at("")
	if e := o.only("bindings"); e != nil {
		return e
	}
	if e := o.require("bindings"); e != nil {
		return e
	}
	if entityBound(trigger) {
		return newErr(400, "The "+trigger+" trigger is entity-bound: its actions are bound by their token exchange profiles.", "")
	}
	items, ok, e := o.array("bindings")
	if e != nil {
		return e
	}
	if !ok {
		return o.typeErr("bindings", "array")
	}
	if len(items) > maxBindings {
		return payloadErr(fmt.Sprintf("Array is too long (%d), maximum %d", len(items), maxBindings), "bindings")
	}
	now := time.Now()
	old := s.st.Bindings[trigger]
	next := make([]*binding, 0, len(items))
	seen := map[string]int{}
	for i, raw := range items {
		path := "bindings[" + strconv.Itoa(i) + "]"
		it, _, e := asObject(raw, path)
		if e != nil {
			return e
		}
		if e := it.only("ref", "display_name", "secrets"); e != nil {
			return e
		}
		if e := it.require("ref"); e != nil {
			return e
		}
		ref, ok, e := it.object("ref")
		if e != nil {
			return e
		}
		if !ok {
			return it.typeErr("ref", "object")
		}
		if e := ref.only("type", "value"); e != nil {
			return e
		}
		if e := ref.require("value"); e != nil {
			return e
		}
		kind, e := ref.enum("type", "binding_id", "action_id", "action_name")
		if e != nil {
			return e
		}
		value, e := ref.str("value", true, 1, 0)
		if e != nil {
			return e
		}
		a := s.bindingTarget(trigger, kind, value)
		if a == nil {
			return newErr(404, "That action does not exist.", "")
		}
		if j, dup := seen[a.ID]; dup {
			return payloadErr("Array items are not unique (indexes "+strconv.Itoa(j)+" and "+strconv.Itoa(i)+")", "bindings")
		}
		seen[a.ID] = i
		if !a.supports(trigger) {
			return newErr(400, "The action "+a.ID+" does not support the trigger "+trigger+".", "")
		}
		a.settle(now)
		if a.deployed() == nil {
			return newErr(400, "action not deployed", "")
		}
		name := a.Name
		if it.has("display_name") {
			if name, e = it.str("display_name", true, 0, 0); e != nil {
				return e
			}
		}
		nb := &binding{ID: uuid4(), ActionID: a.ID, DisplayName: name, CreatedAt: nanos(now), UpdatedAt: nanos(now)}
		for _, was := range old {
			if was.ActionID == a.ID {
				nb.ID, nb.CreatedAt, nb.UpdatedAt = was.ID, was.CreatedAt, was.UpdatedAt
				if was.DisplayName != name {
					nb.UpdatedAt = nanos(now)
				}
			}
		}
		next = append(next, nb)
	}
	s.storeBindings(trigger, next)
	writeJSON(w, 200, ordered{{"bindings", s.bindingViews(trigger, next, now)}})
	return nil
}

// bindingTarget is the action a binding item names, nil when none.
func (s *Server) bindingTarget(trigger string, kind *string, value string) *action {
	k := "action_name"
	if kind != nil {
		k = *kind
	}
	switch k {
	case "action_id":
		return s.st.Actions[value]
	case "binding_id":
		for _, b := range s.st.Bindings[trigger] {
			if b.ID == value {
				return s.st.Actions[b.ActionID]
			}
		}
	default:
		for _, a := range sortedBySeq(s.st.Actions, func(a *action) int64 { return a.Seq }) {
			if a.Name == value {
				return a
			}
		}
	}
	return nil
}

// boundTo lists the triggers the action is bound to.
func (s *Server) boundTo(actionID string) []string {
	var out []string
	for _, t := range triggerIDs {
		for _, b := range s.st.Bindings[t] {
			if b.ActionID == actionID {
				out = append(out, t)
			}
		}
	}
	return out
}

// unbind removes the action from every trigger's bindings.
func (s *Server) unbind(actionID string) {
	for t, list := range s.st.Bindings {
		if kept := slices.DeleteFunc(slices.Clone(list), func(b *binding) bool { return b.ActionID == actionID }); len(kept) < len(list) {
			s.storeBindings(t, kept)
		}
	}
}

// storeBindings replaces the trigger's bindings by list and records the
// action ids of list in the trigger's history.
func (s *Server) storeBindings(trigger string, list []*binding) {
	if len(list) == 0 {
		delete(s.st.Bindings, trigger)
	} else {
		s.st.Bindings[trigger] = list
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
// delete of a bound action that unbound it. A test reads it to see every
// list the trigger ran, not only the last.
func (s *Server) BindingHistory(trigger string) [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]string, 0, len(s.bindingHistory[trigger]))
	for _, ids := range s.bindingHistory[trigger] {
		out = append(out, slices.Clone(ids))
	}
	return out
}
