// Package tenantaction is the tenant_action resource: code that the tenant runs at
// a trigger, built and deployed, such as the custom-token-exchange action a
// token exchange profile needs.
package tenantaction

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TypeName is the resource type.
const TypeName = "tenant_action"

// DefaultRuntime is the runtime the API gives an action created without one
// (reference §2, node22 in 2026); removing runtime returns to it.
const DefaultRuntime = "node22"

// DefaultTimeout bounds a create or an update (the build, then the deploy)
// when the configuration sets no timeouts.
const DefaultTimeout = 10 * time.Minute

var (
	// Runtimes are the runtimes an action may use.
	//
	// Assumption (reference §2 names node22, the default, and node18 as
	// accepted): these two are the ones the tenant accepts.
	Runtimes = []string{"node18", "node22"}

	// TriggerIDs are the triggers an action may support.
	//
	// Assumption (reference §2 names only custom-token-exchange): the
	// platform's documented triggers are accepted too.
	TriggerIDs = []string{
		"custom-token-exchange",
		"post-login",
		"credentials-exchange",
		"pre-user-registration",
		"post-user-registration",
		"post-change-password",
		"send-phone-message",
		"password-reset-post-challenge",
	}

	// npmName is npm's rule for a package name: lower case, URL-safe,
	// optionally scoped, not starting with a dot or an underscore, at most
	// 214 characters. A dependency whose name breaks it can never be
	// installed, so its build would fail.
	npmName = regexp.MustCompile(`^(@[a-z0-9~-][a-z0-9._~-]*/)?[a-z0-9~-][a-z0-9._~-]*$`)

	// uuid is the form of action ids (reference §0.2: UUID v4).
	uuid = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

	httpURL = regexp.MustCompile(`^https?://[^\s/]+\S*$`)
)

var (
	_ resource.Resource                   = (*actionResource)(nil)
	_ resource.ResourceWithConfigure      = (*actionResource)(nil)
	_ resource.ResourceWithImportState    = (*actionResource)(nil)
	_ resource.ResourceWithIdentity       = (*actionResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*actionResource)(nil)
	_ resource.ResourceWithValidateConfig = (*actionResource)(nil)
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

func (r *actionResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keepString := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An action: Node.js code that the tenant runs at a trigger, such as the `custom-token-exchange` " +
			"action that a `tenant_token_exchange_profile` needs. The tenant builds the code (installing its dependencies) " +
			"after every create and change; Terraform waits until the build is done and, with `deploy = true` (the default), " +
			"deploys it and waits until that version is deployed. How long it waits is set by `timeouts` " +
			"(10 minutes for each of create and update by default).\n\n" +
			"Secret values are never returned by the tenant. Set them with `secrets` (the values are kept in the state, " +
			"and only a change of names made outside Terraform is seen), or with the write-only `secrets_wo` and " +
			"`secrets_wo_version` (Terraform 1.11 or later; the values are in neither the plan nor the state, and are sent " +
			"again whenever `secrets_wo_version` changes).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The action's ID (a UUID). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       keepString,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The action's name, 1 to 255 characters. Updated in place (the action is then built, and deployed, again).",
				Required:            true,
				Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
			},
			"code": schema.StringAttribute{
				MarkdownDescription: "The action's JavaScript source. For the `custom-token-exchange` trigger it exports " +
					"`onExecuteCustomTokenExchange(event, api)`. Updated in place: the new code is built and, with `deploy = true`, deployed.",
				Required: true,
			},
			"runtime": schema.StringAttribute{
				MarkdownDescription: "The Node.js runtime: `node22` or `node18`. Defaults to `" + DefaultRuntime + "`, the tenant's " +
					"default; removing it returns to `" + DefaultRuntime + "`. Updated in place.",
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(DefaultRuntime),
				Validators: []validator.String{stringvalidator.OneOf(Runtimes...)},
			},
			"dependencies": schema.MapNestedAttribute{
				MarkdownDescription: "npm packages the code requires, keyed by the package's npm name (e.g. `jose` or " +
					"`@scope/name`: lower case, at most 214 characters); at least one when set. A dependency that cannot be " +
					"installed makes the build fail. Removing the argument removes every dependency. (In a map written out in HCL, " +
					"Terraform keeps the last of a key written twice.)",
				Optional: true,
				Validators: []validator.Map{
					mapvalidator.SizeAtLeast(1),
					mapvalidator.KeysAre(
						stringvalidator.UTF8LengthBetween(1, 214),
						stringvalidator.RegexMatches(npmName, "must be an npm package name: lower case letters, digits, "+
							"'-', '.', '_' and '~', optionally scoped as @scope/name, not starting with '.' or '_'"),
					),
				},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"version": schema.StringAttribute{
						MarkdownDescription: "The version to install (e.g. `5.9.6`, or `latest`).",
						Required:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
					"registry_url": schema.StringAttribute{
						MarkdownDescription: "The npm registry to install the package from (an `http://` or `https://` URL). " +
							"When not set, the tenant's default registry is used.",
						Optional:   true,
						Validators: []validator.String{stringvalidator.RegexMatches(httpURL, "must be an http:// or https:// URL")},
					},
				}},
			},
			"supported_triggers": schema.SingleNestedAttribute{
				MarkdownDescription: "The trigger the action runs at (an action is used by exactly one trigger). Changing " +
					"`id` replaces the action; changing `version` updates it in place.",
				Required: true,
				Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{
						MarkdownDescription: "The trigger: `" + strings.Join(TriggerIDs, "`, `") + "`. Changing it replaces the action.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.OneOf(TriggerIDs...)},
						PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
					},
					"version": schema.StringAttribute{
						MarkdownDescription: "The trigger's version (e.g. `v1` for `custom-token-exchange`). Updated in place.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
				},
			},
			// A list, not a set: the framework's TRACE logs name a set
			// element by its whole value, the secret's included.
			"secrets": schema.ListNestedAttribute{
				MarkdownDescription: "Secrets the code reads as `event.secrets.<name>`, each name once; at least one when set. " +
					"The values are kept in the state (the tenant never returns them), so only a change of names made outside " +
					"Terraform shows as drift; reordering the list sends the secrets again. Conflicts with `secrets_wo`. Removing the argument (without setting `secrets_wo`) " +
					"removes every secret from the action.",
				Optional:   true,
				Validators: []validator.List{listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{
						MarkdownDescription: "The secret's name.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
					"value": schema.StringAttribute{
						MarkdownDescription: "The secret's value.",
						Required:            true,
						Sensitive:           true,
					},
				}},
			},
			"secrets_wo": schema.ListNestedAttribute{
				MarkdownDescription: "Write-only secrets (Terraform 1.11 or later): the same shape as `secrets`, but the values " +
					"are stored in neither the plan nor the state. They are sent on create and whenever `secrets_wo_version` " +
					"changes, and then replace every secret of the action. Requires `secrets_wo_version`; conflicts with `secrets`. " +
					"Removing it together with `secrets_wo_version` removes every secret from the action.",
				Optional:  true,
				WriteOnly: true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ConflictsWith(path.MatchRoot("secrets")),
					listvalidator.AlsoRequires(path.MatchRoot("secrets_wo_version")),
				},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{
						MarkdownDescription: "The secret's name.",
						Required:            true,
						WriteOnly:           true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
					"value": schema.StringAttribute{
						MarkdownDescription: "The secret's value.",
						Required:            true,
						WriteOnly:           true,
						Sensitive:           true,
					},
				}},
			},
			"secrets_wo_version": schema.Int64Attribute{
				MarkdownDescription: "A number to change (e.g. increment) whenever `secrets_wo` should be sent again, for " +
					"example to rotate a value: Terraform cannot see a change of write-only values. Requires `secrets_wo`.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AlsoRequires(path.MatchRoot("secrets_wo"))},
			},
			"deploy": schema.BoolAttribute{
				MarkdownDescription: "Whether to deploy the action after every create and update, and whenever its latest " +
					"changes are not deployed (for example after an edit in the tenant's editor). Defaults to `true`; removing " +
					"it returns to `true`. With `false` the code is built but not deployed.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"force_destroy": schema.BoolAttribute{
				MarkdownDescription: "Whether destroying the action deletes it even while token exchange profiles use it " +
					"(they are left naming a deleted action). Defaults to `false`: the destroy is refused, naming the profiles. " +
					"Removing it returns to `false`. Sends no request by itself.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The build status of the action's latest code: `built` after a successful apply; " +
					"`pending`, `building`, `packaged` or `retrying` while the tenant builds it, `failed` when the build failed.",
				Computed: true,
			},
			"version_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the deployed version (null until the action is first deployed).",
				Computed:            true,
			},
			"deployed_version": schema.Int64Attribute{
				MarkdownDescription: "The number of the deployed version (null until the action is first deployed).",
				Computed:            true,
			},
			"all_changes_deployed": schema.BoolAttribute{
				MarkdownDescription: "Whether the action's latest code is the deployed one. `false` after a change that is not " +
					"deployed; with `deploy = true` the next apply deploys it.",
				Computed: true,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the action was created (ISO 8601, UTC).",
				Computed:            true,
				PlanModifiers:       keepString,
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the action was last changed (ISO 8601, UTC).",
				Computed:            true,
			},
			"timeouts": timeoutsAttribute(ctx),
		},
	}
}

// timeoutsAttribute is the timeouts module's attribute with a description.
func timeoutsAttribute(ctx context.Context) schema.Attribute {
	a := timeouts.Attributes(ctx, timeouts.Opts{
		Create:            true,
		Update:            true,
		CreateDescription: "How long a create may take, the build and the deploy included (a duration such as `\"15m\"`). Defaults to 10 minutes.",
		UpdateDescription: "How long an update may take, the build and the deploy included (a duration such as `\"15m\"`). Defaults to 10 minutes.",
	})
	if n, ok := a.(schema.SingleNestedAttribute); ok {
		n.MarkdownDescription = "How long Terraform waits for the tenant to build and deploy the action. A wait that runs out " +
			"is an error that names the status the action was left in; the action stays in the state."
		return n
	}
	return a
}

// ValidateConfig refuses, before any request, what each attribute's own
// validators cannot see: a secret named twice.
func (r *actionResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m actionModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	for attr, v := range map[string]interface {
		IsNull() bool
		IsUnknown() bool
	}{"secrets": m.Secrets, "secrets_wo": m.SecretsWO} {
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		var items []secretModel
		switch s := v.(type) {
		case types.List:
			resp.Diagnostics.Append(s.ElementsAs(ctx, &items, false)...)
		}
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
		if v.IsNull() || v.IsUnknown() {
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
	timeout, diags := m.Timeouts.Create(ctx, DefaultTimeout)
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
	switch {
	case errors.Is(err, mgmt.ErrDifferent):
		resp.Diagnostics.AddError("Unable to create action", fmt.Sprintf(
			"The answer to creating the action %q was lost, and the new action now found under that name (id %s) differs from the "+
				"configuration, so it was not taken into the state: another writer may have created it.\n\n"+
				"If it is this apply's, import it:\n  terraform import %s.<name> %s\nand apply again; otherwise apply again to create the action.",
			body.Name, a.ID, TypeName, a.ID))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to create action", framework.APIErrorDetail(fmt.Sprintf("Creating the action %q", body.Name), err))
		return
	case outcome == mgmt.Adopted:
		resp.Diagnostics.AddWarning("Action created after a lost answer", fmt.Sprintf(
			"The answer to creating the action %q was lost, and a new action under that name (id %s) equals the configuration, "+
				"so it is the one this apply created and was taken into the state instead of created twice.", body.Name, a.ID))
	}
	// From here on the action exists: it is in the state whatever happens
	// next, so an apply that fails below leaves nothing behind.
	resp.Diagnostics.Append(m.fromAPI(ctx, a)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	wait, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	last, err := r.converge(wait, a, m.Deploy.ValueBool())
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
		resp.Diagnostics.Append(framework.RemovedFromState(TypeName, m.ID.ValueString()))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read action", framework.APIErrorDetail(fmt.Sprintf("Reading the action %q", m.ID.ValueString()), err))
		return
	}
	// After an import the arguments the API does not hold are at their defaults.
	if m.Deploy.IsNull() {
		m.Deploy = types.BoolValue(true)
	}
	if m.ForceDestroy.IsNull() {
		m.ForceDestroy = types.BoolValue(false)
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
	timeout, diags := plan.Timeouts.Update(ctx, DefaultTimeout)
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
	if body.IsEmpty() {
		// Nothing changed in the configuration, but the latest code is not
		// built or not deployed: go on from where the tenant is.
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
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
	if err != nil {
		resp.Diagnostics.AddError("Unable to update action", waitDetail(last, err, "update", timeout, deploy))
	}
}

func (r *actionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m actionModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	id, force := m.ID.ValueString(), m.ForceDestroy.ValueBool()
	if !force {
		// The reference does not say that the API refuses to delete an
		// action a profile uses, so the check is ours: when the profiles
		// cannot be listed, nothing is deleted.
		profiles, err := r.Tenant.API.AllTokenExchangeProfiles(ctx)
		if err != nil {
			resp.Diagnostics.AddError("Unable to delete action", framework.APIErrorDetail(
				fmt.Sprintf("Listing the token exchange profiles, to check that none uses the action %q", id), err)+
				"\n\nThe action was not deleted. Grant read:token_exchange_profiles, or set force_destroy = true to delete it without the check.")
			return
		}
		var users []string
		for _, p := range profiles {
			if p.ActionID == id {
				users = append(users, fmt.Sprintf("%s (subject_token_type %s)", p.ID, p.SubjectTokenType))
			}
		}
		if len(users) > 0 {
			resp.Diagnostics.AddError("Unable to delete action", inUseDetail(id, m.Name.ValueString(), strings.Join(users, ", ")))
			return
		}
	}
	err := r.Tenant.API.DeleteAction(ctx, id, force)
	switch {
	case mgmt.IsConflict(err):
		e, _ := mgmt.AsAPIError(err)
		resp.Diagnostics.AddError("Unable to delete action", inUseDetail(id, m.Name.ValueString(), "the API said: "+e.Message))
	case err != nil:
		resp.Diagnostics.AddError("Unable to delete action", framework.APIErrorDetail(fmt.Sprintf("Deleting the action %q", id), err))
	}
}

func inUseDetail(id, name, users string) string {
	return fmt.Sprintf("The action %s (%q) is used by token exchange profiles: %s. Deleting it would leave them naming a deleted "+
		"action, so token exchange for those subject token types would fail; it was not deleted.\n\n"+
		"Delete the profiles first, or point them at another action (in one configuration, Terraform destroys a profile before "+
		"the action it references). To delete the action anyway, set force_destroy = true on it and apply, then destroy it.",
		id, name, users)
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

// converge waits from the answer a until the action's latest code is built
// and, with deploy, deployed. It returns the last answer read, also with an
// error, so the state always shows where the tenant is.
func (r *actionResource) converge(ctx context.Context, a *mgmt.Action, deploy bool) (*mgmt.Action, error) {
	a, err := r.Tenant.API.AwaitAction(ctx, a, mgmt.IsBuilt)
	if err != nil || !deploy || mgmt.IsDeployed(a) {
		// A create with deploy is deployed by the tenant once built.
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

// waitDetail explains why a create or update did not end with the action
// built (and deployed), and what the next apply does.
func waitDetail(a *mgmt.Action, err error, op string, timeout time.Duration, deploy bool) string {
	var next string
	if op == "create" {
		next = "The action exists in the tenant and is saved in the state, so nothing is left behind. Terraform marks it tainted " +
			"because its create did not finish: the next apply replaces it (deletes it and creates it again). To keep it instead, " +
			"and let the next apply go on from where it is, run:\n  terraform untaint " + TypeName + ".<name>"
	} else {
		next = "The state holds the action as the tenant shows it now, so the next apply goes on from there" +
			map[bool]string{true: ": it waits for the build, then deploys it.", false: ": it waits for the build."}[deploy]
	}
	var failed *mgmt.BuildFailedError
	var we *mgmt.WaitError
	switch {
	case errors.As(err, &failed):
		if op == "update" {
			next = "The state holds the action as the tenant shows it now (the code and dependencies that failed), so nothing is " +
				"lost: the next apply sends the corrected configuration and waits for a new build. Until then, each plan shows " +
				"an update that reports this failure again."
		}
		return buildFailedDetail(failed.Action, next)
	case errors.As(err, &we) && errors.Is(err, context.DeadlineExceeded):
		goal := map[bool]string{true: "built and deployed", false: "built"}[deploy]
		return fmt.Sprintf("Waited %s (timeouts.%s) for the action %s (%q) to be %s; when the time ran out its status was %q "+
			"(all_changes_deployed: %t).\n\n%s\n\nIf builds take this long in the tenant, raise timeouts.%s.",
			timeout, op, a.ID, a.Name, goal, a.Status, a.AllChangesDeployed, next, op)
	case errors.As(err, &we):
		return framework.APIErrorDetail(fmt.Sprintf("Waiting for the action %s (%q), whose status was %q,", a.ID, a.Name, a.Status), we.Err) + "\n\n" + next
	}
	return framework.APIErrorDetail(fmt.Sprintf("Deploying the action %s (%q)", a.ID, a.Name), err) + "\n\n" + next
}

// buildFailedDetail shows all the API gives about a failed build.
func buildFailedDetail(a *mgmt.Action, next string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The tenant could not build the action %s (%q): its status is %q.\n\n", a.ID, a.Name, a.Status)
	if deps := mgmt.DependencyList(a.Dependencies); deps != "" {
		fmt.Fprintf(&b, "Its dependencies: %s. A dependency that cannot be installed (a package or version that is not "+
			"published, or a registry that does not answer) is the usual cause: check each name and version.", deps)
	} else {
		b.WriteString("It has no dependencies, so none of them is the cause.")
	}
	b.WriteString(" The API gives no reason for a failed build (it has no field for a build message or log), so none can be shown here.")
	if v := a.DeployedVersion; v != nil && v.Deployed {
		fmt.Fprintf(&b, " The version deployed before (number %d) is still the one that runs.", v.Number)
	}
	b.WriteString("\n\nCorrect the configuration (usually dependencies), then apply again. ")
	b.WriteString(next)
	return b.String()
}
