package role

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// PermissionsExclusiveTypeName is the resource type.
const PermissionsExclusiveTypeName = "tenant_role_permissions"

var (
	_ resource.Resource                = (*permissionsExclusiveResource)(nil)
	_ resource.ResourceWithConfigure   = (*permissionsExclusiveResource)(nil)
	_ resource.ResourceWithImportState = (*permissionsExclusiveResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*permissionsExclusiveResource)(nil)
	_ resource.ResourceWithIdentity    = (*permissionsExclusiveResource)(nil)
)

// roleIdentity is the identity of the resources that belong to one role.
type roleIdentity struct {
	RoleID types.String `tfsdk:"role_id"`
}

// NewPermissionsExclusiveResource returns the tenant_role_permissions resource.
func NewPermissionsExclusiveResource() resource.Resource { return &permissionsExclusiveResource{} }

type permissionsExclusiveResource struct {
	framework.WithClient
}

func (r *permissionsExclusiveResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = PermissionsExclusiveTypeName
}

func (r *permissionsExclusiveResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"role_id": identityschema.StringAttribute{
				Description:       "The role's ID (rol_...).",
				RequiredForImport: true,
			},
		},
	}
}

func (r *permissionsExclusiveResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete set of permissions of one role. This resource is **authoritative**: creating it " +
			"removes every permission the role already held that is not in the configuration (the apply warns with the list), and " +
			"permissions assigned outside Terraform show as drift and are removed by the next apply. Use one " +
			"`tenant_role_permissions` per role, and do not combine it with `tenant_role_permission` on the same role: this " +
			"resource would remove that one's pair on each apply and that one would assign it again, a permanent diff (the plan " +
			"warns when one configuration does both).\n\n" +
			"Switching a role from one resource to the other takes two applies: first remove the old resources (or `removed` blocks " +
			"with `destroy = false`), then add the new ones. In one apply, the destroy of the old and the create of the new run " +
			"in no set order, and the destroy can remove pairs the create has just assigned.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The role's ID (the same as `role_id`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"role_id": schema.StringAttribute{
				MarkdownDescription: "ID of the role (`rol_...`). Changing it replaces the resource.",
				Required:            true,
				Validators:          []validator.String{validate.ID()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"permissions": schema.MapAttribute{
				MarkdownDescription: "The role's permissions, keyed by the identifier (audience) of the API that defines them " +
					"(not its id), each holding the names of that API's scopes the role has (a set: the order they are written " +
					"in does not matter). At least one API, at least one name per API, and at most " +
					fmt.Sprint(mgmt.MaxPermissionsPerRole) + " permissions in all (the platform's limit per role). Updated in " +
					"place: a name added or removed is assigned to or removed from the role, and nothing else changes.",
				Required:    true,
				ElementType: permissionNamesType,
				Validators: []validator.Map{
					mapvalidator.SizeAtLeast(1),
					mapvalidator.KeysAre(stringvalidator.UTF8LengthBetween(1, 600)),
					mapvalidator.ValueSetsAre(
						setvalidator.SizeBetween(1, mgmt.MaxPermissionsPerRole),
						setvalidator.ValueStringsAre(validate.ScopeValue()...),
					),
					permissionsAtMost(mgmt.MaxPermissionsPerRole),
				},
			},
		},
	}
}

// ModifyPlan says, at plan time, how many pairs an update or a destroy
// removes from the role, so an authoritative removal never surprises, and
// records the role for the check against tenant_role_permission on the same
// role (see roleClaims).
func (r *permissionsExclusiveResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Plan.Raw.IsNull() {
		var roleID types.String
		if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("role_id"), &roleID)...); resp.Diagnostics.HasError() {
			return
		}
		if !roleID.IsUnknown() && !roleID.IsNull() {
			claimRole(r.API, roleID.ValueString(), PermissionsExclusiveTypeName, &resp.Diagnostics)
		}
	}
	if req.State.Raw.IsNull() {
		return
	}
	var state permissionsExclusiveModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	have := state.pairs()
	roleID := state.RoleID.ValueString()
	if req.Plan.Raw.IsNull() {
		sortPairs(have)
		resp.Diagnostics.AddWarning("Role permissions will be removed", fmt.Sprintf(
			"Destroying this resource removes its %d permission(s) from role %q: %s.", len(have), roleID, listPairs(have)))
		return
	}
	var plan permissionsExclusiveModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || plan.Permissions.IsUnknown() || !plan.RoleID.Equal(state.RoleID) {
		return
	}
	want := plan.pairs()
	if _, removed := diff(want, have); len(removed) > 0 {
		resp.Diagnostics.AddWarning("Role permissions will be removed", fmt.Sprintf(
			"This apply removes %d permission(s) from role %q: %s.", len(removed), roleID, listPairs(removed)))
	}
}

// Create makes the role hold exactly the configured pairs: it reads what the
// role holds (one paged read; correctness is worth it), adds what is missing
// and removes the rest, with a warning that lists what was removed.
func (r *permissionsExclusiveResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m permissionsExclusiveModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	want := m.pairs()
	roleID := m.RoleID.ValueString()
	// The role id may have been unknown at plan time.
	claimRole(r.API, roleID, PermissionsExclusiveTypeName, &resp.Diagnostics)
	held, err := r.API.RolePermissions(ctx, roleID)
	if err != nil {
		detail := framework.APIErrorDetail(fmt.Sprintf("Reading the permissions role %q holds", roleID), err)
		if mgmt.IsNotFound(err) {
			detail = fmt.Sprintf("The role %q does not exist. Check role_id.\n\n%s", roleID, detail)
		}
		resp.Diagnostics.AddError("Unable to read role permissions", detail)
		return
	}
	have := make([]mgmt.Permission, 0, len(held))
	for _, p := range held {
		have = append(have, p.Permission)
	}
	if r.converge(ctx, roleID, want, have, &resp.Diagnostics, &resp.State) {
		m.ID = m.RoleID
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		framework.SetIdentity(ctx, resp.Identity, roleIdentity{RoleID: m.RoleID}, &resp.Diagnostics)
	}
}

// converge adds the pairs of want the role lacks, then removes the pairs of
// have not in want: a pair kept in the configuration is never missing from
// the role. It reports whether the role now holds exactly want; when a
// removal failed, the state records what the role holds instead, so nothing
// is lost.
func (r *permissionsExclusiveResource) converge(ctx context.Context, roleID string, want, have []mgmt.Permission, diags *diag.Diagnostics, state *tfsdk.State) bool {
	added, removed := diff(want, have)
	// Reads of this role under way in tenant_role_permission may predate these writes.
	reads.forget(r.API, roleID)
	defer reads.forget(r.API, roleID)
	if len(added) > 0 {
		if err := r.API.AddRolePermissions(ctx, roleID, added); err != nil {
			diags.AddError("Unable to assign role permissions", writeErrorDetail(roleID, err))
			return false
		}
	}
	if len(removed) == 0 {
		return true
	}
	if err := r.API.RemoveRolePermissions(ctx, roleID, removed); err != nil {
		diags.AddError("Unable to remove role permissions",
			framework.APIErrorDetail(fmt.Sprintf("Removing %d permissions from role %q", len(removed), roleID), err))
		// added holds only pairs not in have, so the role now holds both.
		var partial permissionsExclusiveModel
		diags.Append(partial.fromPairs(roleID, append(have, added...))...)
		diags.Append(state.Set(ctx, &partial)...)
		return false
	}
	diags.AddWarning("Role permissions removed", fmt.Sprintf(
		"Role %q held %d permission(s) that are not in the configuration; they were removed: %s.", roleID, len(removed), listPairs(removed)))
	return true
}

func (r *permissionsExclusiveResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m permissionsExclusiveModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, roleIdentity{RoleID: m.RoleID}, &resp.Diagnostics)
	roleID := m.RoleID.ValueString()
	perms, err := r.API.RolePermissions(ctx, roleID)
	if mgmt.IsNotFound(err) {
		resp.Diagnostics.AddWarning("Resource not found, removed from state", fmt.Sprintf(
			"The role %q no longer exists (it was deleted outside Terraform), so its permissions were removed from the state.\n\n"+
				"Create the role again (or point role_id at another role) before the next apply.", roleID))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read role permissions", framework.APIErrorDetail(fmt.Sprintf("Reading the permissions of role %q", roleID), err))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(roleID, perms)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Update adds what is new before removing what is gone, so a permission kept
// in the configuration is never missing from the role.
func (r *permissionsExclusiveResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state permissionsExclusiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	want, have := plan.pairs(), state.pairs()
	claimRole(r.API, plan.RoleID.ValueString(), PermissionsExclusiveTypeName, &resp.Diagnostics)
	if r.converge(ctx, plan.RoleID.ValueString(), want, have, &resp.Diagnostics, &resp.State) {
		plan.ID = plan.RoleID
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		framework.SetIdentity(ctx, resp.Identity, roleIdentity{RoleID: plan.RoleID}, &resp.Diagnostics)
	}
}

func (r *permissionsExclusiveResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m permissionsExclusiveModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	pairs := m.pairs()
	if len(pairs) == 0 {
		return
	}
	reads.forget(r.API, m.RoleID.ValueString())
	defer reads.forget(r.API, m.RoleID.ValueString())
	if err := r.API.RemoveRolePermissions(ctx, m.RoleID.ValueString(), pairs); err != nil {
		resp.Diagnostics.AddError("Unable to remove role permissions", framework.APIErrorDetail(fmt.Sprintf("Removing the permissions of role %q", m.RoleID.ValueString()), err))
	}
}

// ImportState takes the role id (or an identity's role_id); Read lists its
// permissions.
func (r *permissionsExclusiveResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := req.ID
	if id == "" && req.Identity != nil {
		var ident roleIdentity
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		id = ident.RoleID.ValueString()
	}
	if resp.Diagnostics.Append(framework.CheckImportID(PermissionsExclusiveTypeName, id, "the role's id (rol_...)")...); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("role_id"), id)...)
}

func writeErrorDetail(roleID string, err error) string {
	detail := framework.APIErrorDetail(fmt.Sprintf("Assigning permissions to role %q", roleID), err)
	switch e, _ := mgmt.AsAPIError(err); {
	case e == nil:
	case e.StatusCode == 404 && e.ErrorCode != "inexistent_resource_server" && !strings.Contains(e.Message, "resource server"):
		detail = fmt.Sprintf("The role %q does not exist. Check role_id.\n\n%s", roleID, detail)
	case e.StatusCode == 404 || e.StatusCode == 400:
		detail = "A permission names an API that does not exist or a scope that API does not define (the API's message names the pair). " +
			"Check resource_server_identifier (the API's identifier, not its id) and permission_name against the API's scopes.\n\n" + detail
	}
	return detail
}

// listPairs writes pairs for a diagnostic, the first 20 of them.
func listPairs(pairs []mgmt.Permission) string {
	const shown = 20
	parts := make([]string, 0, min(len(pairs), shown))
	for i, p := range pairs {
		if i == shown {
			break
		}
		parts = append(parts, fmt.Sprintf("%s on %s", p.PermissionName, p.ResourceServerIdentifier))
	}
	out := strings.Join(parts, ", ")
	if len(pairs) > shown {
		out += fmt.Sprintf(" and %d more", len(pairs)-shown)
	}
	return out
}
