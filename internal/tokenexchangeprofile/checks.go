package tokenexchangeprofile

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// ModifyPlan warns before a replacement (the API allows one profile per
// subject token type, so the old one goes first), and refuses at plan time,
// as far as the values are known, what the tenant refuses: a subject token
// type another profile holds, and an action that does not exist, runs at
// another trigger than custom-token-exchange, or is not deployed (reference
// §1 [P]; see checkAction). A read the tenant refuses skips its check with a
// warning.
func (r *profileResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, state profileModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}
	if !req.State.Raw.IsNull() {
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
			return
		}
		if !plan.ActionID.Equal(state.ActionID) || !plan.Type.Equal(state.Type) {
			resp.Diagnostics.AddWarning("Token exchange profile will be replaced", fmt.Sprintf(
				"Changing action_id or type replaces the token exchange profile %s. The tenant allows one profile per subject token type, so "+
					"the profile is deleted before its replacement is created: until the apply finishes, token exchange for subject_token_type %s fails.\n\n"+
					"To switch actions without that gap, deploy the new code to the same action instead of changing action_id.",
				state.ID.ValueString(), state.SubjectTokenType))
		}
	}
	if !r.Tenant.Configured() {
		return
	}
	own := framework.ManagedID(ctx, req, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	if sst := plan.SubjectTokenType; !sst.IsUnknown() && !sst.Equal(state.SubjectTokenType) {
		r.checkSubjectTokenType(ctx, sst.ValueString(), own, &resp.Diagnostics)
	}
	if id := plan.ActionID; !id.IsUnknown() && !id.IsNull() && !id.Equal(state.ActionID) {
		r.checkAction(ctx, id.ValueString(), &resp.Diagnostics)
	}
}

// checkSubjectTokenType refuses a subject token type another profile of
// the tenant holds.
func (r *profileResource) checkSubjectTokenType(ctx context.Context, sst, own string, diags *diag.Diagnostics) {
	found, err := r.Tenant.Profiles.Find(ctx, sst)
	switch {
	case err != nil:
		framework.CheckSkipped(diags, path.Root("subject_token_type"), fmt.Sprintf("whether a profile holds subject_token_type %q", sst), err)
	case found != nil && found.ID != own:
		creation(sst).Taken(framework.Found{ID: found.ID, Description: fmt.Sprintf("name %q", found.Name)}, diags)
	}
}

// checkAction refuses an action the tenant refuses a profile on (400,
// reference §1 [P]): one that does not exist, runs at another trigger, or is
// not deployed, unless this run deploys it (a referenced action plans before
// the profile). An action_id unknown at plan, an action this run creates, is
// checked at apply: Terraform plans the profile again, with the id known,
// just before it creates it.
func (r *profileResource) checkAction(ctx context.Context, id string, diags *diag.Diagnostics) {
	a, err := r.Tenant.Actions.Read(ctx, id)
	if err != nil && !mgmt.IsNotFound(err) {
		framework.CheckSkipped(diags, path.Root("action_id"), fmt.Sprintf("the action %q", id), err)
		return
	}
	if what, todo := r.unusable(id, a, r.Tenant.Planned.Deploys(id)); what != "" {
		diags.AddAttributeError(path.Root("action_id"), "Unable to use action", what+"\n\n"+todo)
	}
}

// unusable says why the tenant refuses a profile on the action id (nil when
// it does not exist), and what to do; "" when it does not, or when the
// action is to be deployed first (deploying: by an action of this
// configuration that the profile references, so it plans first).
func (r *profileResource) unusable(id string, a *mgmt.Action, deploying bool) (what, todo string) {
	const refused = "and the tenant refuses a token exchange profile on it (400)."
	if a == nil {
		return fmt.Sprintf("No action with id %q exists in the tenant, %s", id, refused),
			"Reference the action of this configuration (action_id = tenant_action.<name>.id), or correct the id."
	}
	if trigger := actionTrigger(a); trigger != mgmt.TriggerCustomTokenExchange {
		return fmt.Sprintf("The action %s (%q) runs at the trigger %q, not %q, %s", id, a.Name, trigger, mgmt.TriggerCustomTokenExchange, refused),
			fmt.Sprintf("Use an action whose supported_triggers id is %q.", mgmt.TriggerCustomTokenExchange)
	}
	if a.DeployedVersion != nil || deploying {
		return "", ""
	}
	todo = "Deploy it: manage the action with deploy = true and reference it (action_id = tenant_action.<name>.id), so " +
		"that Terraform deploys it before the profile."
	if r.Tenant.Planned.Manages(id) {
		todo = "Set deploy = true on the tenant_action this configuration manages with that id."
	}
	return fmt.Sprintf("The action %s (%q) of the trigger %q has no deployed version, %s", id, a.Name, mgmt.TriggerCustomTokenExchange, refused), todo
}

// actionTrigger is the trigger an action runs at, "none" without one.
func actionTrigger(a *mgmt.Action) string {
	if len(a.SupportedTriggers) == 0 {
		return "none"
	}
	return a.SupportedTriggers[0].ID
}
