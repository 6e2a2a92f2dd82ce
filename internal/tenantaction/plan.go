package tenantaction

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

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
func (r *actionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() || len(resp.RequiresReplace) > 0 {
		return
	}
	var plan, state actionModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	planComputed(&plan, state)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
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
