package role

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
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

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
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

// switchingTypesDoc ends the description of both permission resources.
const switchingTypesDoc = "Switching a role from one resource type to the other in one apply (or renaming a `for_each` key " +
	"without a `moved` block) ends with every pair the new configuration lists assigned, whichever of the destroy and " +
	"the create Terraform runs first; when the destroy runs first, those pairs are missing from the role until the " +
	"create runs. To switch without that gap, replace the old resources with `removed` blocks (`lifecycle { destroy = " +
	"false }`) in the same apply that adds the new ones: the old are forgotten, not destroyed. Within one type, rename " +
	"with `moved`."

// NewPermissionsExclusiveResource returns the tenant_role_permissions resource.
func NewPermissionsExclusiveResource() resource.Resource { return &permissionsExclusiveResource{} }

type permissionsExclusiveResource struct {
	framework.WithTenant
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
			switchingTypesDoc,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The role's ID (the same as `role_id`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"role_id": schema.StringAttribute{
				MarkdownDescription: "ID of the role (`rol_` followed by letters and digits). Changing it replaces the resource.",
				Required:            true,
				Validators:          []validator.String{validate.RoleID()},
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
					mapvalidator.NoNullValues(),
					mapvalidator.KeysAre(stringvalidator.UTF8LengthBetween(1, 600)),
					mapvalidator.ValueListsAre(permissionNames(1, mgmt.MaxPermissionsPerRole)),
					permissionsAtMost(mgmt.MaxPermissionsPerRole),
				},
			},
		},
	}
}

// ModifyPlan counts, at plan time, the resources that manage the role's
// permissions (two tenant_role_permissions on one role would undo each
// other's pairs on every apply; tenant_role_permission beside it likewise),
// says which pairs the apply removes from the role (those dropped from the
// configuration, and on create those the role holds that the configuration
// does not list), and checks what the tenant would refuse: a role that does
// not exist, a scope its API does not define (checkPairs).
func (r *permissionsExclusiveResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		var state permissionsExclusiveModel
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
			return
		}
		have, _ := state.pairs()
		resp.Diagnostics.AddWarning("Role permissions will be removed", fmt.Sprintf(
			"Destroying this resource removes its %d permission(s) from role %q: %s. A pair that another resource "+
				"assigns in the same apply ends assigned.", len(have), state.RoleID.ValueString(), listPairs(have)))
		return
	}
	var plan permissionsExclusiveModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || plan.RoleID.IsUnknown() {
		return
	}
	roleID := plan.RoleID.ValueString()
	var state permissionsExclusiveModel
	if !req.State.Raw.IsNull() {
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
			return
		}
		if !plan.RoleID.Equal(state.RoleID) {
			// A replacement: Terraform plans it again as a create, which
			// claims the role.
			return
		}
	}
	sets, mixed := r.Tenant.RolePermissions.ClaimExclusive(roleID, plan.claimKey())
	if sets > 1 {
		resp.Diagnostics.AddAttributeError(path.Root("role_id"), "Role permissions managed twice", duplicateExclusiveDetail(roleID, sets))
		return
	}
	if mixed {
		resp.Diagnostics.AddAttributeWarning(path.Root("role_id"), "Role permissions managed by two resource types", mixedUseDetail(roleID))
	}
	want, known := plan.pairs()
	if !known {
		// Some names are known only after apply: what the apply removes is too.
		return
	}
	if req.State.Raw.IsNull() {
		if !r.Tenant.Configured() {
			return
		}
		if held, ok := checkRole(ctx, r.Tenant, roleID, &resp.Diagnostics); ok {
			warnCreateRemovals(roleID, want, held, &resp.Diagnostics)
			checkPairs(ctx, r.Tenant, roleID, want, path.Root("permissions"), &resp.Diagnostics)
		}
		return
	}
	have, _ := state.pairs()
	added, removed := mgmt.DiffPermissions(want, have)
	if len(removed) > 0 {
		resp.Diagnostics.AddWarning("Role permissions will be removed", fmt.Sprintf(
			"This apply removes %d permission(s) from role %q: %s.", len(removed), roleID, listPairs(removed)))
	}
	if len(added) > 0 && r.Tenant.Configured() {
		checkPairs(ctx, r.Tenant, roleID, added, path.Root("permissions"), &resp.Diagnostics)
	}
}

// warnCreateRemovals warns when the create will remove pairs the role
// holds (held, the run's shared read) that the configuration does not list.
func warnCreateRemovals(roleID string, want []mgmt.Permission, held []mgmt.RolePermission, diags *diag.Diagnostics) {
	if _, removed := mgmt.DiffPermissions(want, mgmt.Pairs(held)); len(removed) > 0 {
		diags.AddAttributeWarning(path.Root("permissions"), "Role permissions will be removed", fmt.Sprintf(
			"Role %q holds %d permission(s) that this resource does not list (assigned outside Terraform, by another "+
				"configuration, or by resources this apply destroys). This resource is authoritative: creating it removes "+
				"them: %s.\n\nAdd them to permissions to keep them.", roleID, len(removed), listPairs(removed)))
	}
}

// Create makes the role hold exactly the configured pairs: it reads what the
// role holds (one paged read, shared with the plan of this apply), adds what
// is missing and removes the rest, with a warning that lists what was
// removed.
func (r *permissionsExclusiveResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m permissionsExclusiveModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	roleID, want := m.RoleID.ValueString(), m.appliedPairs(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	held, added, removed, kept, err := r.Tenant.RolePermissions.Converge(ctx, roleID, want)
	if r.checkWrite(ctx, roleID, held, added, removed, kept, err, &resp.Diagnostics, &resp.State) {
		m.ID = m.RoleID
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		framework.SetIdentity(ctx, resp.Identity, roleIdentity{RoleID: m.RoleID}, &resp.Diagnostics)
	}
}

// checkWrite turns the outcome of a write into diagnostics. It reports
// whether the role now holds exactly the configured pairs; when a removal
// failed, the state records what the role holds instead, so nothing is lost.
func (r *permissionsExclusiveResource) checkWrite(ctx context.Context, roleID string, held, added, removed, kept []mgmt.Permission, err error,
	diags *diag.Diagnostics, state *tfsdk.State) bool {
	var removeErr *conns.RemoveError
	switch {
	case errors.As(err, &removeErr):
		diags.AddError("Unable to remove role permissions",
			removalDetail(fmt.Sprintf("Removing %d permissions from role %q", len(removed), roleID), removeErr.Err))
		// added holds only pairs not in held, so the role now holds both.
		var partial permissionsExclusiveModel
		diags.Append(partial.fromPairs(roleID, append(held, added...))...)
		diags.Append(state.Set(ctx, &partial)...)
		return false
	case err != nil && held == nil && added == nil:
		detail := framework.APIErrorDetail(fmt.Sprintf("Reading the permissions role %q holds", roleID), err)
		if mgmt.IsNotFound(err) {
			detail = fmt.Sprintf("The role %q does not exist. Check role_id.\n\n%s", roleID, detail)
		}
		diags.AddError("Unable to read role permissions", detail)
		return false
	case err != nil:
		diags.AddError("Unable to assign role permissions", writeErrorDetail(roleID,
			"Add the scope to the API's scopes, or correct the permission (each key of permissions is an API's identifier, not its id).", err))
		return false
	}
	if gone := len(removed) - len(kept); gone > 0 {
		diags.AddWarning("Role permissions removed", fmt.Sprintf(
			"Role %q held %d permission(s) that are not in the configuration; they were removed: %s.", roleID, gone, listPairs(without(removed, kept))))
	}
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
	perms, err := r.Tenant.RolePermissions.Read(ctx, roleID)
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
	roleID, want, have := plan.RoleID.ValueString(), plan.appliedPairs(&resp.Diagnostics), state.appliedPairs(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	added, removed := mgmt.DiffPermissions(want, have)
	kept, err := r.Tenant.RolePermissions.Change(ctx, roleID, added, removed)
	if r.checkWrite(ctx, roleID, have, added, removed, kept, err, &resp.Diagnostics, &resp.State) {
		plan.ID = plan.RoleID
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		framework.SetIdentity(ctx, resp.Identity, roleIdentity{RoleID: plan.RoleID}, &resp.Diagnostics)
	}
}

// Delete removes the pairs this resource manages, but for those another
// resource assigned in this apply (a role switching to tenant_role_permission
// in one apply keeps them).
func (r *permissionsExclusiveResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m permissionsExclusiveModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	pairs := m.appliedPairs(&resp.Diagnostics)
	if resp.Diagnostics.HasError() || len(pairs) == 0 {
		return
	}
	if _, err := r.Tenant.RolePermissions.Change(ctx, m.RoleID.ValueString(), nil, pairs); err != nil {
		resp.Diagnostics.AddError("Unable to remove role permissions", removalDetail(fmt.Sprintf("Removing the permissions of role %q", m.RoleID.ValueString()), err))
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
	if !validate.RoleIDPattern.MatchString(id) {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf(
			"The import ID %q for %s is not a role id. Use the role's id: rol_ followed by letters and digits.", id, PermissionsExclusiveTypeName))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("role_id"), id)...)
}
