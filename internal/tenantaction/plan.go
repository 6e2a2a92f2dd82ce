package tenantaction

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

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// ModifyPlan plans the computed attributes of an update from what the apply
// will do, so that the plan shows it:
//   - a change the tenant must build (code, name, runtime, dependencies,
//     trigger version, secrets) plans status "built", and with deploy a new
//     deployed version and all_changes_deployed = true;
//   - with deploy = true, latest code that is not deployed (edited in the
//     tenant's editor, or an earlier apply that stopped) plans
//     all_changes_deployed = true: an update that deploys it;
//   - latest code that is not built (still building, or failed) plans
//     status "built": an update that waits for it, or reports the failure;
//   - anything else (deploy, force_destroy, timeouts) keeps every computed
//     value: the update sends no request.
//
// It also records, for the profiles' plan-time checks, that this run
// deploys the action, and warns when a replacement would take away a
// custom-token-exchange action that token exchange profiles run. The plan
// of a destroy is planDestroy's.
func (r *actionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() && !req.State.Raw.IsNull() {
		r.planDestroy(ctx, req, resp)
		return
	}
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var plan, state actionModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	if len(resp.RequiresReplace) > 0 {
		r.warnProfilesOfReplaced(ctx, state, &resp.Diagnostics)
		return
	}
	planComputed(&plan, state)
	if r.Tenant.Configured() {
		r.Tenant.Planned.Manage(state.ID.ValueString())
		if plan.Deploy.ValueBool() {
			r.Tenant.Planned.Deploy(state.ID.ValueString())
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// warnProfilesOfReplaced names the token exchange profiles that run the
// action a plan replaces: they need the new action's id, and a profile that
// keeps the old one makes the action's destroy refused.
func (r *actionResource) warnProfilesOfReplaced(ctx context.Context, state actionModel, diags *diag.Diagnostics) {
	if state.trigger() != mgmt.TriggerCustomTokenExchange || !r.Tenant.Configured() {
		return
	}
	users, err := r.profilesUsing(ctx, state.ID.ValueString())
	if err != nil {
		framework.CheckSkipped(diags, path.Root("supported_triggers"), "which token exchange profiles run the action this plan replaces", err)
		return
	}
	if len(users) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("supported_triggers"), "Action of token exchange profiles will be replaced", fmt.Sprintf(
		"This plan replaces the action %s (%q), which token exchange profiles run: %s. Token exchange for their subject "+
			"token types stops until the profiles run the new action. A profile that names the action by its literal id keeps "+
			"the old id, and the action's destroy is refused while it does.\n\nReference the action from the profiles "+
			"(action_id = tenant_action.<name>.id), so that Terraform replaces them with it.",
		state.ID.ValueString(), state.Name.ValueString(), strings.Join(users, ", ")))
}

// planComputed sets plan's computed attributes for an update from state.
func planComputed(plan *actionModel, state actionModel) {
	plan.Status, plan.AllChangesDeployed = state.Status, state.AllChangesDeployed
	plan.VersionID, plan.DeployedVersion = state.VersionID, state.DeployedVersion
	plan.CreatedAt, plan.UpdatedAt = state.CreatedAt, state.UpdatedAt
	changed := plan.differs(state)
	built := mgmt.IsBuilt(&mgmt.Action{Status: state.Status.ValueString()})
	if changed || !built {
		plan.Status = types.StringValue(mgmt.ActionBuilt)
	}
	if changed {
		plan.UpdatedAt = types.StringUnknown()
	}
	switch {
	case plan.Deploy.IsUnknown():
		plan.AllChangesDeployed, plan.VersionID, plan.DeployedVersion = types.BoolUnknown(), types.StringUnknown(), types.Int64Unknown()
		plan.UpdatedAt = types.StringUnknown()
	case plan.Deploy.ValueBool() && (changed || !built || !state.AllChangesDeployed.ValueBool()):
		plan.AllChangesDeployed, plan.VersionID, plan.DeployedVersion = types.BoolValue(true), types.StringUnknown(), types.Int64Unknown()
		plan.UpdatedAt = types.StringUnknown()
	case changed:
		// Not deployed: the change makes the latest code differ from the deployed one.
		plan.AllChangesDeployed = types.BoolUnknown()
	}
}

// unbindKey is the private data key of a destroy's plan that names the
// trigger whose bindings of this configuration drop the action.
const unbindKey = "unbind"

// planDestroy plans the destroy of an action bound to a trigger. Terraform
// applies it before the update of the bindings that listed it (the update
// depends on the action), and the tenant refuses to delete a bound action
// (409). When this configuration's tenant_trigger_actions of that trigger
// planned before and drops the action, the destroy unbinds it itself, which
// the plan records in its private data for the apply. When they plan after
// it, they see this destroy and unbind the action before it (see
// conns.TriggerBindings); no plan waits for the other. An action bound to a
// trigger whose bindings this configuration does not manage stays bound:
// the delete meets the tenant's refusal, and its error names the trigger. An action the tenant does not hold bound, an entity-bound one
// (bound by its profile) and one with force_destroy (the tenant unbinds it)
// need nothing.
func (r *actionResource) planDestroy(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m actionModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !r.Tenant.Configured() {
		return
	}
	trigger, id := m.trigger(), m.ID.ValueString()
	if trigger == "" || mgmt.IsEntityBound(trigger) || m.ForceDestroy.ValueBool() {
		return
	}
	bindings, err := r.Tenant.Bindings.Read(ctx, trigger)
	if err != nil {
		framework.CheckSkipped(&resp.Diagnostics, path.Root("id"), fmt.Sprintf("whether the trigger %q runs the action", trigger), err)
		return
	}
	if !slices.ContainsFunc(bindings, func(b mgmt.TriggerBinding) bool { return b.Action.ID == id }) {
		return
	}
	planned, seen := r.Tenant.Bindings.Destroying(id, trigger)
	if !seen {
		return
	}
	if planned.Binds(id) {
		resp.Diagnostics.AddError("Unable to destroy action", fmt.Sprintf(
			"The action %s (%q) is destroyed by this plan, but the tenant_trigger_actions of the trigger %q in this "+
				"configuration still binds it. Remove it from that resource's actions.", id, m.Name.ValueString(), trigger))
		return
	}
	value, _ := json.Marshal(trigger) // a string always encodes
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, unbindKey, value)...)
}
