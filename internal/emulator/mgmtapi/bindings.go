package mgmtapi

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// maxBindings is how many actions a trigger may have bound: "Each flow may
// have a maximum of 20 active bound Actions" (the Actions limitations page,
// https://auth0.com/docs/customize/actions/limitations, [R]). How the tenant
// refuses more is not documented ([?]): the emulator assumes the Management
// API's payload validation answer (reference §0.3), the message a schema's
// maxItems gives.
const maxBindings = 20

// Trigger bindings (trigger-bindings.md): each trigger holds an ordered
// list of deployed actions, its execution order. A PATCH replaces the whole
// list; GET pages it.

// triggerParam returns the {trigger} path value, one of the triggers an
// action may support.
//
// Assumption (trigger-bindings.md is silent): another trigger id is a path
// validation error, worded as the API words path errors (reference §0.3).
func triggerParam(r *http.Request) (string, *wire.Error) {
	t := r.PathValue("trigger")
	if !slices.Contains(tenant.TriggerIDs, t) {
		return "", wire.NewErr(400, "Path validation error: 'No enum match for: \""+t+"\"' on property triggerId (An actions extensibility point).", "invalid_uri")
	}
	return t, nil
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
func (s *Server) triggerBindings(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	trigger, e := triggerParam(r)
	if e != nil {
		return e
	}
	page, perPage, _, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	if r.URL.Query().Get("per_page") == "" {
		perPage = 20
	}
	all := s.BindingViews(trigger, s.St.Bindings[trigger], time.Now())
	start, end := wire.Window(len(all), page, perPage)
	out := wire.Ordered{{"bindings", all[start:end]}}
	if page > 0 {
		out = append(out, wire.Ordered{{"page", page}}...)
	}
	if end > start {
		out = append(out, wire.Ordered{{"total", len(all)}}...)
	}
	wire.WriteJSON(w, 200, append(out, wire.Ordered{{"per_page", perPage}}...))
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
//     (the action's own 404, reference §0.4), or 400 with that text under
//     --assume bind_missing_action=invalid;
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
func (s *Server) updateTriggerBindings(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	trigger, e := triggerParam(r)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	o := b.At("")
	if e := o.Only("bindings"); e != nil {
		return e
	}
	if e := o.Require("bindings"); e != nil {
		return e
	}
	if tenant.EntityBound(trigger) {
		return wire.NewErr(400, "The "+trigger+" trigger is entity-bound: its actions are bound by their token exchange profiles.", "")
	}
	items, ok, e := o.Array("bindings")
	if e != nil {
		return e
	}
	if !ok {
		return o.TypeErr("bindings", "array")
	}
	if len(items) > maxBindings {
		return wire.PayloadErr(fmt.Sprintf("Array is too long (%d), maximum %d", len(items), maxBindings), "bindings")
	}
	now := time.Now()
	old := s.St.Bindings[trigger]
	next := make([]*tenant.Binding, 0, len(items))
	seen := map[string]int{}
	for i, raw := range items {
		path := "bindings[" + strconv.Itoa(i) + "]"
		it, _, e := wire.AsObject(raw, path)
		if e != nil {
			return e
		}
		if e := it.Only("ref", "display_name", "secrets"); e != nil {
			return e
		}
		if e := it.Require("ref"); e != nil {
			return e
		}
		ref, ok, e := it.Object("ref")
		if e != nil {
			return e
		}
		if !ok {
			return it.TypeErr("ref", "object")
		}
		if e := ref.Only("type", "value"); e != nil {
			return e
		}
		if e := ref.Require("value"); e != nil {
			return e
		}
		kind, e := ref.Enum("type", "binding_id", "action_id", "action_name")
		if e != nil {
			return e
		}
		value, e := ref.Str("value", true, 1, 0)
		if e != nil {
			return e
		}
		a := s.bindingTarget(trigger, kind, value)
		if a == nil {
			status := 404
			if s.Assume.BindMissingAction == "invalid" {
				status = 400
			}
			return wire.NewErr(status, "That action does not exist.", "")
		}
		if j, dup := seen[a.ID]; dup {
			return wire.PayloadErr("Array items are not unique (indexes "+strconv.Itoa(j)+" and "+strconv.Itoa(i)+")", "bindings")
		}
		seen[a.ID] = i
		if !a.Supports(trigger) {
			return wire.NewErr(400, "The action "+a.ID+" does not support the trigger "+trigger+".", "")
		}
		a.Settle(now)
		if a.Deployed() == nil {
			return wire.NewErr(400, "action not deployed", "")
		}
		name := a.Name
		if it.Has("display_name") {
			if name, e = it.Str("display_name", true, 0, 0); e != nil {
				return e
			}
		}
		nb := &tenant.Binding{ID: wire.UUID4(), ActionID: a.ID, DisplayName: name, CreatedAt: wire.Nanos(now), UpdatedAt: wire.Nanos(now)}
		for _, was := range old {
			if was.ActionID == a.ID {
				nb.ID, nb.CreatedAt, nb.UpdatedAt = was.ID, was.CreatedAt, was.UpdatedAt
				if was.DisplayName != name {
					nb.UpdatedAt = wire.Nanos(now)
				}
			}
		}
		next = append(next, nb)
	}
	s.StoreBindings(trigger, next)
	wire.WriteJSON(w, 200, wire.Ordered{{"bindings", s.BindingViews(trigger, next, now)}})
	return nil
}

// bindingTarget is the action a binding item names, nil when none.
func (s *Server) bindingTarget(trigger string, kind *string, value string) *tenant.Action {
	k := "action_name"
	if kind != nil {
		k = *kind
	}
	switch k {
	case "action_id":
		return s.St.Actions[value]
	case "binding_id":
		for _, b := range s.St.Bindings[trigger] {
			if b.ID == value {
				return s.St.Actions[b.ActionID]
			}
		}
	default:
		for _, a := range tenant.SortedBySeq(s.St.Actions, func(a *tenant.Action) int64 { return a.Seq }) {
			if a.Name == value {
				return a
			}
		}
	}
	return nil
}
