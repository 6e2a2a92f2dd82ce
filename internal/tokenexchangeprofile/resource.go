// Package tokenexchangeprofile is the tenant_token_exchange_profile resource and data source.
package tokenexchangeprofile

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

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
		func(found *mgmt.TokenExchangeProfile) bool { return sameProfile(sent, found) })
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
	switch parseImportID(id) {
	case importInvalid:
		resp.Diagnostics.AddError("Unable to import token exchange profile", fmt.Sprintf(
			"The import ID %q is neither a profile id (tep_...) nor a subject_token_type URI; it is empty, \".\" or \"..\", or holds white space.", id))
		return
	case importBySubjectTokenType:
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

// importKind is what an import ID names.
type importKind int

const (
	importInvalid importKind = iota
	importByID
	importBySubjectTokenType
)

// parseImportID tells an id from a subject_token_type.
func parseImportID(s string) importKind {
	switch {
	case strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t\n") || validate.IDProblem(s) != "":
		return importInvalid
	case strings.Contains(s, ":"):
		return importBySubjectTokenType
	default:
		return importByID
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
