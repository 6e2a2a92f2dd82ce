package trigger

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// entityBoundNote says how an entity-bound trigger's actions are bound
// ("" for other triggers).
func entityBoundNote(trigger string) string {
	if !mgmt.IsEntityBound(trigger) {
		return ""
	}
	return fmt.Sprintf("A %s action is bound by its token exchange profile (tenant_token_exchange_profile.action_id), never by a trigger binding. ", trigger)
}

// ValidateConfig refuses, before any request, an entity-bound trigger and
// an action listed twice.
func (r *bindingsResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m bindingsModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if t := m.Trigger; !t.IsUnknown() && mgmt.IsEntityBound(t.ValueString()) {
		resp.Diagnostics.AddAttributeError(path.Root("trigger"), "Invalid attribute value", fmt.Sprintf(
			"Attribute trigger is %q, which has no trigger bindings. %sRemove this resource, or choose another trigger.",
			t.ValueString(), entityBoundNote(t.ValueString())))
	}
	items, diags := m.items(ctx)
	resp.Diagnostics.Append(diags...)
	first := map[string]int{}
	for i, a := range items {
		if a.ID.IsNull() || a.ID.IsUnknown() {
			continue
		}
		if j, seen := first[a.ID.ValueString()]; seen {
			resp.Diagnostics.AddAttributeError(path.Root("actions").AtListIndex(i).AtName("id"), "Duplicate action", fmt.Sprintf(
				"Attribute actions[%d].id is %q, which actions[%d] binds already; a trigger binds an action once. Remove one of them.",
				i, a.ID.ValueString(), j))
			continue
		}
		first[a.ID.ValueString()] = i
	}
}

// ModifyPlan checks, at plan time, what the tenant would refuse at apply or
// what the apply would do unasked, as far as the values are known:
//
//   - a listed action that does not exist, runs at another trigger, or is
//     not deployed (unless this run deploys it), read once per action and
//     run (only the actions new to the list: the others were bound);
//   - a listed action that this plan destroys;
//   - another tenant_trigger_actions of the configuration on the same
//     trigger (each apply would undo the other);
//   - on create, the actions the trigger runs that the list leaves out,
//     which the create unbinds (a warning naming them).
//
// It records what it binds to its trigger, and that an object is destroyed
// (its destroy, and the old trigger of a replacement), for the plans of the
// destroys of the actions it unbinds, which Terraform applies before this
// update: a destroy that plans after this plan unbinds its action itself,
// and when destroys of actions this update drops planned before it, this
// plan replaces the resource, so that its destroy unbinds those actions
// before their deletes (see conns.TriggerBindings). A trigger given up by
// one resource and bound by another in one plan (a rename without a moved
// block) fails the plan of whichever of the two plans second. The destroy
// of an object that another object in the state claims (the old object of
// a create_before_destroy replacement) is recorded as superseded in its
// private data, and leaves the trigger alone. A check whose read the tenant
// refuses is skipped with a warning.
func (r *bindingsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.Tenant.Configured() {
		return
	}
	var plan, state bindingsModel
	creating := req.State.Raw.IsNull()
	if !creating {
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
			return
		}
	}
	if req.Plan.Raw.IsNull() {
		r.planDestroy(ctx, state.Trigger.ValueString(), resp)
		return
	}
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || plan.Trigger.IsUnknown() {
		return
	}
	trigger := plan.Trigger.ValueString()
	if mgmt.IsEntityBound(trigger) {
		return // refused by ValidateConfig
	}
	if old := state.Trigger.ValueString(); !creating && old != trigger {
		if superseded, handedOver := r.Tenant.Bindings.Release(old); superseded || handedOver {
			resp.Diagnostics.AddAttributeError(path.Root("trigger"), "Unable to unbind trigger actions", handedOverDetail(old))
		}
	}
	if plan.Actions.IsUnknown() {
		return
	}
	planned, diags := plan.planned(ctx)
	items, d := plan.items(ctx)
	diags.Append(d...)
	before, d := state.items(ctx)
	diags.Append(d...)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	var boundIDs []string
	if !creating && state.Trigger.ValueString() == trigger {
		for _, a := range before {
			boundIDs = append(boundIDs, a.ID.ValueString())
		}
	}
	claimed := r.Tenant.Bindings.Claim(trigger, planned, boundIDs, !creating)
	if claimed.HandedOver {
		resp.Diagnostics.AddAttributeError(path.Root("trigger"), "Unable to bind trigger actions", handedOverDetail(trigger))
	}
	if claimed.Twice {
		resp.Diagnostics.AddAttributeError(path.Root("trigger"), "Trigger actions managed twice", fmt.Sprintf(
			"Two tenant_trigger_actions resources in this configuration bind the trigger %q; each apply would unbind "+
				"the other's actions. Keep one resource per trigger.", trigger))
	}
	switch {
	case len(claimed.Unbind) > 0:
		r.replaceToUnbind(ctx, trigger, claimed.Unbind, before, resp)
	case claimed.Rewrite && !creating:
		r.rewrite(ctx, trigger, &plan, resp)
	case creating:
		// The id is the trigger's: known now, not after apply.
		plan.ID = plan.Trigger
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	}
	bound := map[string]bool{}
	for _, id := range boundIDs {
		bound[id] = true
	}
	for i, a := range items {
		if a.ID.IsUnknown() || a.ID.IsNull() {
			continue
		}
		id, at := a.ID.ValueString(), path.Root("actions").AtListIndex(i).AtName("id")
		if slices.Contains(claimed.Listed, id) {
			resp.Diagnostics.AddAttributeError(at, "Unable to bind action", fmt.Sprintf(
				"The action %s is destroyed by this plan, but actions[%d] still binds it, so the apply would fail. Remove it from actions.", id, i))
			continue
		}
		if !bound[id] {
			r.checkAction(ctx, trigger, id, at, &resp.Diagnostics)
		}
	}
	if creating {
		// A replacement's create skips the actions its destroy unbinds for
		// their deletes (the replacement's warning names them).
		deleted, d := unbindList(ctx, req.Private)
		resp.Diagnostics.Append(d...)
		r.warnUnbound(ctx, trigger, planned, deleted, &resp.Diagnostics)
	}
}

// privateData is what reads a plan's or state's private data.
type privateData interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// unbindList is the list of actions a replacement's destroy unbinds, from
// the private data (none when not a replacement's).
func unbindList(ctx context.Context, private privateData) ([]string, diag.Diagnostics) {
	value, diags := private.GetKey(ctx, unbindKey)
	if len(value) == 0 || diags.HasError() {
		return nil, diags
	}
	var ids []string
	if err := json.Unmarshal(value, &ids); err != nil {
		diags.AddError("Unable to read the plan's private data", fmt.Sprintf(
			"The plan's list of the actions to unbind could not be read (%v). This is a bug in the provider; please report it.", err))
	}
	return ids, diags
}

// Private data keys of this resource's plans.
const (
	// unbindKey lists the actions the destroy of a replacement unbinds:
	// the ones this plan destroys (replaceToUnbind).
	unbindKey = "unbind"
	// supersededKey marks an object whose destroy leaves the trigger alone:
	// another object of the trigger, in the state, binds its actions.
	supersededKey = "superseded"
)

// planDestroy plans the destroy of an object of trigger: a rename without a
// moved block fails; an object another one supersedes is marked so in the
// private data, which Delete reads (the refresh may have marked it too).
func (r *bindingsResource) planDestroy(ctx context.Context, trigger string, resp *resource.ModifyPlanResponse) {
	superseded, handedOver := r.Tenant.Bindings.Release(trigger)
	if handedOver {
		resp.Diagnostics.AddError("Unable to unbind trigger actions", handedOverDetail(trigger))
	}
	if superseded {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, supersededKey, []byte("true"))...)
	}
}

// replaceToUnbind plans the replacement of the bindings of trigger, whose
// destroy unbinds only ids, actions this plan destroys after that destroy
// and before the create (Terraform destroys what depends on an object
// before the object itself), and warns why, naming each action as the
// state shows it (before).
func (r *bindingsResource) replaceToUnbind(ctx context.Context, trigger string, ids []string, before []boundAction, resp *resource.ModifyPlanResponse) {
	value, _ := json.Marshal(ids) // a list of strings always encodes
	if resp.Diagnostics.Append(resp.Private.SetKey(ctx, unbindKey, value)...); resp.Diagnostics.HasError() {
		return
	}
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("actions"))
	names := make([]string, 0, len(ids))
	for _, a := range before {
		if slices.Contains(ids, a.ID.ValueString()) {
			names = append(names, fmt.Sprintf("%s (%q)", a.ID.ValueString(), a.DisplayName.ValueString()))
		}
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("actions"), "Trigger actions replaced to unbind deleted actions", fmt.Sprintf(
		"This plan deletes %d action(s) that the trigger %q runs and this resource drops: %s. So that the tenant lets "+
			"them be deleted, this resource is replaced: its destroy unbinds only those actions, before their deletes, "+
			"and its create binds the new list (the trigger runs the others throughout). With lifecycle prevent_destroy "+
			"on this resource Terraform refuses the replacement: remove the actions from actions in one apply, and from "+
			"the configuration in the next.", len(ids), trigger, strings.Join(names, ", ")))
}

// rewrite plans an update that writes the same list again (the id is the
// only value that changes, unknown until the apply): another object of the
// trigger in the state is destroyed by this plan, after this update, and
// leaves the trigger alone once this object has written it.
func (r *bindingsResource) rewrite(ctx context.Context, trigger string, plan *bindingsModel, resp *resource.ModifyPlanResponse) {
	plan.ID = types.StringUnknown()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
	resp.Diagnostics.AddAttributeWarning(path.Root("id"), "Trigger actions written again", fmt.Sprintf(
		"This plan destroys another object of the trigger %q: the old object of a create_before_destroy replacement that "+
			"an earlier apply left (deposed), or a second resource of the trigger. This resource writes its list again "+
			"before that destroy, which then leaves the trigger's actions as this resource binds them.", trigger))
}

// handedOverDetail explains why one plan cannot destroy a
// tenant_trigger_actions of trigger while another binds that trigger.
func handedOverDetail(trigger string) string {
	return fmt.Sprintf("This plan destroys a tenant_trigger_actions of the trigger %q, which unbinds every action of the "+
		"trigger, while another tenant_trigger_actions of this configuration binds that trigger; Terraform runs the two in "+
		"no set order, so the trigger could end with no action bound. If the resource was renamed, add a moved block from "+
		"its old address to the new one; otherwise apply the removal on its own first.", trigger)
}

// checkAction refuses an action the trigger cannot bind: one that does not
// exist, runs at another trigger, or is not deployed, unless this run
// deploys it (an action this resource references plans first).
func (r *bindingsResource) checkAction(ctx context.Context, trigger, id string, at path.Path, diags *diag.Diagnostics) {
	a, err := r.Tenant.Actions.Read(ctx, id)
	switch {
	case mgmt.IsNotFound(err):
		diags.AddAttributeError(at, "Unable to bind action", fmt.Sprintf(
			"No action with id %q exists in the tenant, so the apply would fail to bind it. Reference the action of this "+
				"configuration (id = tenant_action.<name>.id), or correct the id.", id))
		return
	case err != nil:
		framework.CheckSkipped(diags, at, fmt.Sprintf("the action %q", id), err)
		return
	}
	if !slices.ContainsFunc(a.SupportedTriggers, func(t mgmt.ActionTrigger) bool { return t.ID == trigger }) {
		runs, note := "no trigger", ""
		if len(a.SupportedTriggers) > 0 {
			runs, note = fmt.Sprintf("the trigger %q", a.SupportedTriggers[0].ID), entityBoundNote(a.SupportedTriggers[0].ID)
		}
		diags.AddAttributeError(at, "Unable to bind action", fmt.Sprintf(
			"The action %s (%q) runs at %s, not at %q, so the apply would fail to bind it. %sBind an action whose "+
				"supported_triggers id is %q.", id, a.Name, runs, trigger, note, trigger))
		return
	}
	if a.DeployedVersion == nil && !r.Tenant.Planned.Deploys(id) {
		diags.AddAttributeError(at, "Unable to bind action", fmt.Sprintf(
			"The action %s (%q) has no deployed version, and only a deployed action can be bound, so the apply would fail. "+
				"Manage it with deploy = true and reference it (id = tenant_action.<name>.id), so that Terraform deploys it first.", id, a.Name))
	}
}

// warnUnbound warns that a create unbinds the actions the trigger runs that
// the list leaves out: the resource is authoritative.
func (r *bindingsResource) warnUnbound(ctx context.Context, trigger string, planned conns.PlannedBindings, deleted []string, diags *diag.Diagnostics) {
	current, err := r.Tenant.Bindings.Read(ctx, trigger)
	if err != nil {
		framework.CheckSkipped(diags, path.Root("actions"), fmt.Sprintf("which actions the trigger %q runs", trigger), err)
		return
	}
	var gone []string
	for _, b := range current {
		if !planned.Binds(b.Action.ID) && !slices.Contains(deleted, b.Action.ID) {
			gone = append(gone, fmt.Sprintf("%s (%q)", b.Action.ID, b.DisplayName))
		}
	}
	if len(gone) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("actions"), "Trigger actions will be unbound", fmt.Sprintf(
		"The trigger %q runs %d action(s) that this resource does not list, and its create unbinds them: %s. Add them to actions to keep them.",
		trigger, len(gone), strings.Join(gone, ", ")))
}
