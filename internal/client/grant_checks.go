package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ resource.ResourceWithValidateConfig = (*grantResource)(nil)

// ValidateConfig refuses scopes beside allow_all_scopes = true, before any
// request: such a grant gives every scope, and the API takes no scope with
// it [S]. (allow_all_scopes = false beside scopes is fine: generated
// configuration writes both.)
func (r *grantResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var scopes types.Set
	var all types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("scopes"), &scopes)...)
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("allow_all_scopes"), &all)...); resp.Diagnostics.HasError() {
		return
	}
	if !scopes.IsNull() && all.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("scopes"), "Invalid attribute combination",
			"Attribute scopes cannot be set with allow_all_scopes = true, which gives every scope of the API. Remove scopes, or set allow_all_scopes = false.")
	}
}

// ModifyPlan checks, at plan time, what the tenant would refuse or what
// would not work, as far as the values are known:
//
//   - another tenant_client_grant of this configuration grants the same
//     client the same API for the same subject type (an error), or for the
//     other one (a warning: whether the tenant keeps one grant per pair or
//     one per pair and subject type is not known);
//   - on create, the tenant already holds a grant of the client for the
//     API with the same subject type (an error with the import command,
//     409 [R]), or with the other one (a warning);
//   - the API is neither in the tenant nor planned by this configuration,
//     or does not define some of the scopes (warnings: the reference does
//     not record what the tenant answers).
//
// A check whose read the tenant refuses is skipped with a warning.
func (r *grantResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Tenant.Configured() {
		return
	}
	var plan grantModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || plan.Audience.IsUnknown() {
		return
	}
	own := framework.ManagedID(ctx, req, resp)
	if plan.ClientID.IsUnknown() {
		// A new client has no grant yet.
		r.checkAPI(ctx, plan, req.State.Raw.IsNull(), resp)
		return
	}
	clientID, audience := plan.ClientID.ValueString(), plan.Audience.ValueString()
	key := mgmt.GrantKey(clientID, audience)
	subject := plan.SubjectType.ValueString()
	taken, other := r.Tenant.PlannedGrants.Claim(key, subject, own)
	if taken {
		resp.Diagnostics.AddAttributeError(path.Root("audience"), "Duplicate client grant", fmt.Sprintf(
			"Another %s of this configuration grants the client %q access to the API %q for the subject type %q. "+
				"Keep one resource and put every scope in it.", GrantTypeName, clientID, audience, subject))
		return
	}
	if other != "" && !plan.SubjectType.IsUnknown() {
		grantSharedWarning(&resp.Diagnostics, clientID, audience, subject, "another "+GrantTypeName+" of this configuration")
	}
	if req.State.Raw.IsNull() {
		found, err := r.Tenant.GrantsAtStart.Find(ctx, key)
		switch {
		case err != nil:
			framework.CheckSkipped(&resp.Diagnostics, path.Root("audience"), fmt.Sprintf("whether the client %q has a grant for %q", clientID, audience), err)
		case found != nil && found.ID != own && (grantSubject(found) == subject || plan.SubjectType.IsUnknown()):
			grantExists(&resp.Diagnostics, clientID, audience, found.ID)
			return
		case found != nil && found.ID != own:
			grantSharedWarning(&resp.Diagnostics, clientID, audience, subject, fmt.Sprintf("the grant %s", found.ID))
		}
	}
	if !req.State.Raw.IsNull() {
		var state grantModel
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || plan.Scopes.Equal(state.Scopes) {
			return // nothing the check looks at changes
		}
	}
	r.checkAPI(ctx, plan, req.State.Raw.IsNull(), resp)
}

// grantExists reports that the client already has a grant for the API
// (id): what exists, the import command, what to do.
func grantExists(diags *diag.Diagnostics, clientID, audience, id string) {
	diags.AddAttributeError(path.Root("audience"), "Client grant already exists", fmt.Sprintf(
		"The client %q already has a grant for the API %q (id %s). To manage it here, import it: terraform import %s.<name> %s. "+
			"If another %s of this configuration manages it, remove this one and put its scopes there.",
		clientID, audience, id, GrantTypeName, id, GrantTypeName))
}

// grantSubject is the grant's subject type ("client" when the API leaves
// it out).
func grantSubject(g *mgmt.ClientGrant) string {
	if g.SubjectType == nil {
		return "client"
	}
	return *g.SubjectType
}

// grantSharedWarning warns of a grant for the same client and API with the
// other subject type (holder): whether the tenant keeps one grant per
// pair or one per pair and subject type is not known.
func grantSharedWarning(diags *diag.Diagnostics, clientID, audience, subject, holder string) {
	diags.AddAttributeWarning(path.Root("subject_type"), "Client grant may be refused", fmt.Sprintf(
		"The client %q has a grant for the API %q with another subject type (%s). The tenant may keep one grant per "+
			"client and API, and then refuses this %q grant: if the apply fails, keep one grant for the pair.",
		clientID, audience, holder, subject))
}

// checkAPI warns when the grant's API is not in the tenant nor planned, or
// does not define scopes the grant gives.
func (r *grantResource) checkAPI(ctx context.Context, plan grantModel, creating bool, resp *resource.ModifyPlanResponse) {
	audience := plan.Audience.ValueString()
	defined, planned := r.Tenant.Planned.Scopes(audience)
	if !planned {
		rs, err := r.Tenant.ResourceServers.Find(ctx, audience)
		switch {
		case err != nil:
			framework.CheckSkipped(&resp.Diagnostics, path.Root("audience"), fmt.Sprintf("whether an API with identifier %q exists", audience), err)
			return
		case rs == nil:
			if creating {
				resp.Diagnostics.AddAttributeWarning(path.Root("audience"), "Client grant for an unknown API", fmt.Sprintf(
					"No API of the tenant has the identifier %q, and no tenant_resource_server of this configuration planned so "+
						"far does. The tenant cannot grant access to an API it does not hold. Correct the audience, or refer to the "+
						"API's resource (tenant_resource_server.<name>.identifier) so that Terraform creates it first.", audience))
			}
			return
		}
		defined = rs.ScopeValues()
	}
	if defined == nil || plan.allowAll() || plan.Scopes.IsUnknown() {
		return
	}
	var missing []string
	for _, s := range plan.scopeValues(ctx, &resp.Diagnostics) {
		if !defined[s] {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		resp.Diagnostics.AddAttributeWarning(path.Root("scopes"), "Client grant of undefined scopes", fmt.Sprintf(
			"The API %q does not define %s. A token carries only scopes its API defines, so the tenant may refuse these or "+
				"leave them out of the client's tokens. Add them to the API's scopes, or remove them here.", audience, strings.Join(missing, ", ")))
	}
}
