// Package tokenexchangeprofile is the tenant_token_exchange_profile resource and data source.
package tokenexchangeprofile

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// TypeName is the resource and data source type.
const TypeName = "tenant_token_exchange_profile"

// ReservedPrefixes are subject token type prefixes the API refuses.
var ReservedPrefixes = []string{"http://auth0.com", "https://auth0.com", "http://okta.com", "https://okta.com", "urn:ietf", "urn:auth0", "urn:okta"}

var (
	_ resource.Resource                = (*profileResource)(nil)
	_ resource.ResourceWithConfigure   = (*profileResource)(nil)
	_ resource.ResourceWithImportState = (*profileResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*profileResource)(nil)
	_ resource.ResourceWithIdentity    = (*profileResource)(nil)
)

// NewResource returns the tenant_token_exchange_profile resource.
func NewResource() resource.Resource { return &profileResource{} }

type profileResource struct {
	framework.WithTenant
}

// object names a profile in the diagnostics of its delete.
var object = framework.Object{TypeName: TypeName, Summary: "token exchange profile", Noun: "token exchange profile"}

func (r *profileResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *profileResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The profile's ID (`tep_` followed by 16 characters).")
}

func (r *profileResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A token exchange profile ties a subject token type (a URI) to a custom token exchange action, " +
			"so that tokens of that type can be exchanged at the tenant's token endpoint. " +
			"**Early Access:** token exchange profiles are an Early Access feature of the tenant; the tenant must have it enabled.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The profile's ID (`tep_` followed by 16 characters). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "A friendly name, 3 to 50 characters. Updated in place. The API requires a name when a " +
					"profile is created, so a create without one names the profile after its `subject_token_type` (its first 50 " +
					"characters); otherwise, when not set, the profile keeps the name it has: removing the argument, or importing " +
					"a profile without it, never renames the profile.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{stringvalidator.UTF8LengthBetween(3, 50)},
				PlanModifiers: []planmodifier.String{namePlan{}},
			},
			"subject_token_type": schema.StringAttribute{
				MarkdownDescription: "The type of token this profile exchanges: an absolute URI of 8 to 100 characters " +
					"(e.g. `https://acme.com/cis-token` or `urn:acme:legacy-token`), unique in the tenant. The prefixes " +
					"`http(s)://auth0.com`, `http(s)://okta.com`, `urn:ietf`, `urn:auth0` and `urn:okta` are reserved. Updated in place.",
				Required: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(8, 100),
					validate.AbsoluteURI(),
					validate.NoPrefix("reserved by the platform", ReservedPrefixes...),
				},
			},
			"action_id": schema.StringAttribute{
				MarkdownDescription: "ID of the deployed action (1 to 36 characters) that supports the `custom-token-exchange` trigger " +
					"and validates the subject token. Changing it replaces the profile.",
				Required: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(1, 36),
					validate.ID(),
				},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"type": schema.StringAttribute{
				MarkdownDescription: "The profile type. Only `custom_authentication` (the default) exists. Changing it replaces the profile.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString("custom_authentication"),
				Validators:          []validator.String{stringvalidator.OneOf("custom_authentication")},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the profile was created (ISO 8601, UTC).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the profile was last changed (ISO 8601, UTC).",
				Computed:            true,
			},
		},
	}
}

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

// creation names a profile with the subject token type in create and plan
// diagnostics.
func creation(sst string) framework.Creation {
	return framework.Creation{TypeName: TypeName, Summary: "token exchange profile", Noun: "token exchange profile",
		Key: "subject_token_type", Value: sst, ImportByKey: true}
}

func (r *profileResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m profileModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	sent := m.toAPI()
	p, outcome, err := mgmt.SafeCreate(ctx, 3,
		func() (*mgmt.TokenExchangeProfile, error) { return r.Tenant.API.CreateTokenExchangeProfile(ctx, sent) },
		func() (*mgmt.TokenExchangeProfile, error) {
			return r.Tenant.API.FindTokenExchangeProfile(ctx, sent.SubjectTokenType)
		},
		func(p *mgmt.TokenExchangeProfile) bool {
			return p.Name == sent.Name && p.SubjectTokenType == sent.SubjectTokenType && p.ActionID == sent.ActionID && p.Type == sent.Type
		})
	var found *framework.Found
	if p != nil {
		found = &framework.Found{ID: p.ID, Description: fmt.Sprintf("name %q, action_id %q", p.Name, p.ActionID)}
	}
	if !creation(sent.SubjectTokenType).Result(found, outcome, err, func(err error) string { return r.createErrorDetail(ctx, m, err) }, &resp.Diagnostics) {
		return
	}
	m.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
}

func (r *profileResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m profileModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	p, err := r.Tenant.Profiles.Read(ctx, m.ID.ValueString())
	if mgmt.IsNotFound(err) {
		framework.Gone(ctx, resp, TypeName, m.ID.ValueString())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read token exchange profile",
			framework.APIErrorDetail(fmt.Sprintf("Reading token exchange profile %q", m.ID.ValueString()), err))
		return
	}
	m.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *profileResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state profileModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	p, err := r.Tenant.API.UpdateTokenExchangeProfile(ctx, state.ID.ValueString(), plan.toUpdate(state))
	if err != nil {
		detail := framework.APIErrorDetail(fmt.Sprintf("Updating token exchange profile %q", state.ID.ValueString()), err)
		if mgmt.IsBadRequest(err) && strings.Contains(err.Error(), "already exists") {
			detail = fmt.Sprintf("Another token exchange profile already uses subject_token_type %q; it must be unique in the tenant.\n\n%s",
				plan.SubjectTokenType.ValueString(), detail)
		}
		resp.Diagnostics.AddError("Unable to update token exchange profile", detail)
		return
	}
	plan.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
}

func (r *profileResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	object.Delete(ctx, req, resp, r.Tenant.API.DeleteTokenExchangeProfile)
}

// ImportState accepts the profile's id or its subject_token_type (a URI,
// recognised by its colon; ids never hold one).
func (r *profileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := framework.ImportID(ctx, req, &resp.Diagnostics)
	switch ParseImportID(id) {
	case ImportInvalid:
		resp.Diagnostics.AddError("Unable to import token exchange profile", fmt.Sprintf(
			"The import ID %q is neither a profile id (tep_...) nor a subject_token_type URI; it is empty, \".\" or \"..\", or holds white space.", id))
		return
	case ImportBySubjectTokenType:
		p, err := r.Tenant.API.FindTokenExchangeProfile(ctx, id)
		if err != nil {
			resp.Diagnostics.AddError("Unable to import token exchange profile",
				framework.APIErrorDetail(fmt.Sprintf("Looking up the profile with subject_token_type %q", id), err))
			return
		}
		if p == nil {
			resp.Diagnostics.AddError("Unable to import token exchange profile",
				fmt.Sprintf("No token exchange profile has subject_token_type %q. Import by the profile's id (tep_...) or check the URI.", id))
			return
		}
		id = p.ID
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
}

// ImportKind is what an import ID names.
type ImportKind int

const (
	ImportInvalid ImportKind = iota
	ImportByID
	ImportBySubjectTokenType
)

// ParseImportID tells an id from a subject_token_type.
func ParseImportID(s string) ImportKind {
	switch {
	case strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t\n") || validate.IDProblem(s) != "":
		return ImportInvalid
	case strings.Contains(s, ":"):
		return ImportBySubjectTokenType
	default:
		return ImportByID
	}
}

// createErrorDetail explains each answer POST /token-exchange-profiles can
// give. A 400 may be the profile's action (reference §1 [P]; the texts are
// not known), so the action is read to tell: the plan checked it, but it
// may have changed since.
func (r *profileResource) createErrorDetail(ctx context.Context, m profileModel, err error) string {
	stt, action := m.SubjectTokenType.ValueString(), m.ActionID.ValueString()
	tried := fmt.Sprintf("Creating a token exchange profile for subject_token_type %q", stt)
	e, ok := mgmt.AsAPIError(err)
	if !ok {
		return framework.APIErrorDetail(tried, err)
	}
	switch {
	case e.StatusCode == 400:
		a, rerr := r.Tenant.API.GetAction(ctx, action)
		if rerr != nil && !mgmt.IsNotFound(rerr) {
			return framework.APIErrorDetail(tried, err) + fmt.Sprintf(" A profile's action must exist, support the %s trigger "+
				"and be deployed: check the action %q (reading it failed: %v).", mgmt.TriggerCustomTokenExchange, action, rerr)
		}
		if what, todo := r.unusable(action, a, false); what != "" {
			return fmt.Sprintf("%s\n\nThe API said: %s\n\n%s", what, e.Message, todo)
		}
	case e.StatusCode == 401 && strings.Contains(strings.ToLower(e.Message), "global"):
		return fmt.Sprintf("Token exchange profiles can only be created by a global client, and the provider's client_id is not one.\n\n"+
			"Use the credentials of the tenant's global client (or a token issued to it).\n\nThe API said: %s", e.Message)
	}
	return framework.APIErrorDetail(tried, err)
}
