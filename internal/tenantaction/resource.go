// Package tenantaction is the tenant_action resource: code that the tenant runs at
// a trigger, built and deployed, such as the custom-token-exchange action a
// token exchange profile needs.
package tenantaction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var (
	_ resource.Resource                     = (*actionResource)(nil)
	_ resource.ResourceWithConfigure        = (*actionResource)(nil)
	_ resource.ResourceWithImportState      = (*actionResource)(nil)
	_ resource.ResourceWithIdentity         = (*actionResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*actionResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*actionResource)(nil)
	_ resource.ResourceWithConfigValidators = (*actionResource)(nil)
)

// NewResource returns the tenant_action resource.
func NewResource() resource.Resource { return &actionResource{} }

type actionResource struct {
	framework.WithTenant
}

func (r *actionResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *actionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The action's ID (a UUID).")
}

// ConfigValidators refuses write-only secrets without their version, and
// a version without them, saying what an import leaves to write.
func (r *actionResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{framework.WriteOnlyPairs(framework.WriteOnly{
		Value: "secrets_wo",
		Hint: "The tenant never returns secret values, so an action taken over by an import or by generated configuration " +
			"needs its secrets written here: add secrets_wo = [{ name = \"...\", value = \"...\" }, ...] with every secret of " +
			"the action. With secrets_wo_version unchanged the apply sends nothing; change it to send them. Or remove " +
			"secrets_wo_version and list the secrets in secrets.",
	})}
}

// ValidateConfig refuses, before any request, what each attribute's own
// validators cannot see: a secret named twice.
func (r *actionResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m actionModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	for attr, v := range map[string]types.List{"secrets": m.Secrets, "secrets_wo": m.SecretsWO} {
		if !flex.IsSet(v) {
			continue
		}
		var items []secretModel
		resp.Diagnostics.Append(v.ElementsAs(ctx, &items, false)...)
		names := make([]types.String, 0, len(items))
		for _, s := range items {
			names = append(names, s.Name)
		}
		if dup := duplicate(names); dup != "" {
			resp.Diagnostics.AddAttributeError(path.Root(attr), "Duplicate secret name", fmt.Sprintf(
				"Attribute %s names the secret %q more than once; secret names are unique within an action. Keep one of them.", attr, dup))
		}
	}
}

// duplicate is the first known value seen twice ("" when none is).
func duplicate(values []types.String) string {
	seen := map[string]bool{}
	for _, v := range values {
		if !flex.IsSet(v) {
			continue
		}
		if seen[v.ValueString()] {
			return v.ValueString()
		}
		seen[v.ValueString()] = true
	}
	return ""
}

func (r *actionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m actionModel
	var wo types.List
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("secrets_wo"), &wo)...); resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := m.Timeouts.Create(ctx, defaultTimeout)
	secrets, d := writeOnlySecrets(ctx, wo)
	diags.Append(d...)
	body, d := m.toCreate(ctx, secrets)
	diags.Append(d...)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	// The timeout bounds the whole create, but the create request itself
	// runs to its end (the client bounds each attempt): a create cut off
	// after it was sent could not look up its lost answer, and would leave
	// an action behind.
	deadline := time.Now().Add(timeout)
	a, outcome, err := r.Tenant.API.CreateActionSafe(ctx, body)
	creation := framework.Creation{TypeName: TypeName, Summary: "action", Noun: "action", Key: "name", Value: body.Name}
	var found *framework.Found
	if a != nil {
		found = &framework.Found{ID: a.ID}
	}
	if !creation.Result(found, outcome, err, func(err error) string {
		return framework.APIErrorDetail(fmt.Sprintf("Creating the action %q", body.Name), err)
	}, &resp.Diagnostics) {
		return
	}
	// From here on the action exists: it is in the state whatever happens
	// next, so an apply that fails below leaves nothing behind.
	// A profile that references it plans again before its create, with
	// this id, and its check names this resource.
	r.Tenant.Planned.Manage(a.ID)
	resp.Diagnostics.Append(m.fromAPI(ctx, a)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	wait, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	last, err := r.awaitCreated(wait, a, body.Deploy)
	resp.Diagnostics.Append(m.fromAPI(ctx, last)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	if err != nil {
		resp.Diagnostics.AddError("Unable to create action", waitDetail(last, err, "create", timeout, m.Deploy.ValueBool()))
	}
}

func (r *actionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m actionModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	a, err := r.Tenant.API.GetAction(ctx, m.ID.ValueString())
	if mgmt.IsNotFound(err) {
		framework.Gone(ctx, resp, TypeName, m.ID.ValueString())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read action", framework.APIErrorDetail(fmt.Sprintf("Reading the action %q", m.ID.ValueString()), err))
		return
	}
	// After an import the arguments the API does not hold are at their defaults.
	if m.Deploy.IsNull() {
		m.Deploy = types.BoolValue(true)
		adoptSecrets(&m, a)
	}
	if m.ForceDestroy.IsNull() {
		m.ForceDestroy = types.BoolValue(false)
	}
	if m.SkipProfileCheck.IsNull() {
		m.SkipProfileCheck = types.BoolValue(false)
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, a)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *actionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state actionModel
	var wo types.List
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("secrets_wo"), &wo)...); resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultTimeout)
	secrets, d := writeOnlySecrets(ctx, wo)
	diags.Append(d...)
	body, d := plan.toUpdate(ctx, state, secrets)
	diags.Append(d...)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	id, deploy := state.ID.ValueString(), plan.Deploy.ValueBool()
	if body.IsEmpty() && mgmt.IsBuilt(&mgmt.Action{Status: state.Status.ValueString()}) && (!deploy || state.AllChangesDeployed.ValueBool()) {
		// Only deploy, force_destroy or timeouts changed: nothing to send.
		plan.Status, plan.AllChangesDeployed, plan.VersionID = state.Status, state.AllChangesDeployed, state.VersionID
		plan.DeployedVersion, plan.CreatedAt, plan.UpdatedAt = state.DeployedVersion, state.CreatedAt, state.UpdatedAt
		plan.SecretsWO = types.ListNull(secretType)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var a *mgmt.Action
	var err error
	if body.IsEmpty() && strings.EqualFold(state.Status.ValueString(), mgmt.ActionFailed) {
		// Nothing changed, but the last build failed (a registry that did not
		// answer, say): send the code again, which starts a new build.
		// Assumption (the reference is silent): a PATCH that changes the code
		// to what it is starts a build, as every other PATCH does (§2).
		body.Code = mgmt.Set(plan.Code.ValueString())
	}
	if body.IsEmpty() {
		// Nothing changed in the configuration, but the latest code is not
		// built (still building) or not deployed: go on from where the tenant is.
		a, err = r.Tenant.API.GetAction(ctx, id)
	} else {
		a, err = r.Tenant.API.UpdateAction(ctx, id, body)
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to update action", framework.APIErrorDetail(fmt.Sprintf("Updating the action %q", id), err))
		return
	}
	// The tenant holds the change from here on; the state says so even if
	// the wait below fails.
	resp.Diagnostics.Append(plan.fromAPI(ctx, a)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
	last, err := r.converge(ctx, a, deploy)
	resp.Diagnostics.Append(plan.fromAPI(ctx, last)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if err != nil {
		resp.Diagnostics.AddError("Unable to update action", waitDetail(last, err, "update", timeout, deploy))
	}
}

func (r *actionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m actionModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	id := m.ID.ValueString()
	if !m.SkipProfileCheck.ValueBool() && m.trigger() == mgmt.TriggerCustomTokenExchange && !r.noProfileUses(ctx, m, &resp.Diagnostics) {
		return
	}
	// The plan found that this configuration's bindings drop the action, in
	// this apply but after this destroy: the tenant unbinds it (force).
	value, diags := req.Private.GetKey(ctx, unbindKey)
	resp.Diagnostics.Append(diags...)
	force := m.ForceDestroy.ValueBool() || len(value) > 0
	err := r.Tenant.API.DeleteAction(ctx, id, force)
	if trigger := m.trigger(); mgmt.IsConflict(err) && trigger != "" && !mgmt.IsEntityBound(trigger) {
		// One read of the bindings decides both what to do and what to
		// say: they may be written between two reads.
		bound, rerr := r.boundAfterWrites(ctx, trigger, id)
		e, _ := mgmt.AsAPIError(err)
		switch {
		case rerr != nil:
			resp.Diagnostics.AddError("Unable to delete action", boundUnknown(id, m.Name.ValueString(), trigger, e.Message, rerr))
			return
		case bound:
			resp.Diagnostics.AddError("Unable to delete action", boundRefused(id, m.Name.ValueString(), trigger, e.Message))
			return
		}
		// Refused while bound, unbound now: bindings that name the action
		// by its literal id order nothing between their write and this
		// delete, which may run first. Delete it again.
		err = r.Tenant.API.DeleteAction(ctx, id, force)
	}
	switch {
	case mgmt.IsConflict(err):
		e, _ := mgmt.AsAPIError(err)
		resp.Diagnostics.AddError("Unable to delete action", inUseByTenantDetail(id, m.Name.ValueString(), e.Message))
	case err != nil:
		resp.Diagnostics.AddError("Unable to delete action", framework.APIErrorDetail(fmt.Sprintf("Deleting the action %q", id), err))
	}
}

// boundAfterWrites reports whether the trigger still binds the action id,
// read once no write of its bindings is in flight (a replacement's
// unbinding counted whole), after the tenant refused the action's delete.
// The read is the run's shared one: the refused delete changed nothing, so
// the refusals of many bound actions share a read until a write of actions
// or bindings that the tenant does not refuse ends.
func (r *actionResource) boundAfterWrites(ctx context.Context, trigger, id string) (bool, error) {
	r.Tenant.Bindings.AfterWrites(ctx, trigger)
	bindings, err := r.Tenant.Bindings.Read(ctx, trigger)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(bindings, func(b mgmt.TriggerBinding) bool { return b.Action.ID == id }), nil
}

// noProfileUses checks that no token exchange profile uses the action
// before it is deleted. The reference does not say whether the API refuses
// to delete an action a profile uses (§8), so the check is the provider's:
// when the profiles cannot be listed for want of the scope, nothing is
// deleted. A tenant without token exchange profiles at all (the API refuses
// the feature: 403 insufficient_entitlement, or 404) has none that could.
func (r *actionResource) noProfileUses(ctx context.Context, m actionModel, diags *diag.Diagnostics) bool {
	id := m.ID.ValueString()
	users, err := r.profilesUsing(ctx, id)
	if err != nil {
		diags.AddError("Unable to delete action", framework.APIErrorDetail(
			fmt.Sprintf("Listing the token exchange profiles, to check that none uses the action %q", id), err)+
			"\n\nThe action was not deleted. Grant read:token_exchange_profiles to the provider's client, or set "+
			"skip_profile_check = true on the action (apply, then destroy) to delete it without the check.")
		return false
	}
	if len(users) > 0 {
		diags.AddError("Unable to delete action", inUseDetail(id, m.Name.ValueString(), strings.Join(users, ", ")))
		return false
	}
	return true
}

// profilesUsing names the token exchange profiles that run the action id,
// from the run's shared list of profiles; a tenant without the feature
// (404, or 403 insufficient_entitlement) has none. Profiles that this apply
// deletes may be on their way out: with action_id given as a literal id,
// Terraform orders nothing between their deletes and this one. Where some
// use the action, it asks again once no write of profiles is in flight
// (the shared list holds what they did).
func (r *actionResource) profilesUsing(ctx context.Context, id string) ([]string, error) {
	users, err := r.profilesNaming(ctx, id)
	if err != nil || len(users) == 0 {
		return users, err
	}
	r.Tenant.Profiles.AfterWrites(ctx)
	return r.profilesNaming(ctx, id)
}

func (r *actionResource) profilesNaming(ctx context.Context, id string) ([]string, error) {
	profiles, err := r.Tenant.Profiles.All(ctx)
	if e, ok := mgmt.AsAPIError(err); ok && (e.StatusCode == 404 || e.ErrorCode == "insufficient_entitlement") {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var users []string
	for _, p := range profiles {
		if p.ActionID == id {
			users = append(users, fmt.Sprintf("%s (subject_token_type %s)", p.ID, p.SubjectTokenType))
		}
	}
	return users, nil
}

// ImportState accepts the action's id (a UUID).
func (r *actionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const accepted = "the action's id, a UUID such as 5d110643-a54e-432b-a0b7-e58bbf1fae77"
	id := framework.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.Append(framework.CheckImportID(TypeName, id, accepted)...); resp.Diagnostics.HasError() {
		return
	}
	if !uuid.MatchString(id) {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("The import ID %q for %s is not an action id. Use %s.", id, TypeName, accepted))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
}

// awaitCreated waits from the create's answer a until the action is built
// and, when the create asked for it (deploy:true), deployed by the tenant.
// It never deploys: the create's deploy is the one, and the tenant may show
// it only some time after the build ends (the reference does not say when),
// so a deploy of its own would make a second version.
func (r *actionResource) awaitCreated(ctx context.Context, a *mgmt.Action, deployed bool) (*mgmt.Action, error) {
	if deployed {
		return r.Tenant.API.AwaitAction(ctx, a, mgmt.IsDeployed)
	}
	return r.Tenant.API.AwaitAction(ctx, a, mgmt.IsBuilt)
}

// converge waits from the answer a until the action's latest code is built
// and, with deploy, deployed, which it asks for once the build is over. It
// returns the last answer read, also with an error, so the state always
// shows where the tenant is.
func (r *actionResource) converge(ctx context.Context, a *mgmt.Action, deploy bool) (*mgmt.Action, error) {
	a, err := r.Tenant.API.AwaitAction(ctx, a, mgmt.IsBuilt)
	if err != nil || !deploy || mgmt.IsDeployed(a) {
		return a, err
	}
	deployed, err := r.Tenant.API.DeployAndWait(ctx, a.ID)
	var we *mgmt.WaitError
	switch {
	case err == nil:
		return deployed, nil
	case errors.As(err, &we):
		return we.Action, err
	case deployed != nil:
		return deployed, err
	}
	return a, err
}
