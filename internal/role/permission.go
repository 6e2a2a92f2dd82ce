package role

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// PermissionTypeName is the type of the one-pair resource.
const PermissionTypeName = "tenant_role_permission"

var (
	_ resource.Resource                = (*permissionResource)(nil)
	_ resource.ResourceWithConfigure   = (*permissionResource)(nil)
	_ resource.ResourceWithImportState = (*permissionResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*permissionResource)(nil)
	_ resource.ResourceWithIdentity    = (*permissionResource)(nil)
)

// NewPermissionResource returns the tenant_role_permission resource.
func NewPermissionResource() resource.Resource { return &permissionResource{} }

// permissionResource manages one (API identifier, scope) pair of a role and
// leaves the role's other pairs alone.
//
// A pair has no identity beyond itself, and assigning a pair the role
// already holds is assumed to succeed and change nothing (the reference
// does not say; the emulator answers 201 either way), so this resource does
// not own its pair exclusively: when the pair
// was assigned before (outside Terraform, or by another instance naming the
// same pair), creating it changes nothing, and destroying either instance
// removes the pair from the role. Another instance of the same pair then
// finds it gone on its next refresh and assigns it again on the next apply.
type permissionResource struct {
	framework.WithTenant
}

func (r *permissionResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = PermissionTypeName
}

// permissionIdentity is a tenant_role_permission's identity: the pair itself.
type permissionIdentity struct {
	RoleID                   types.String `tfsdk:"role_id"`
	ResourceServerIdentifier types.String `tfsdk:"resource_server_identifier"`
	PermissionName           types.String `tfsdk:"permission_name"`
}

func (m permissionModel) identity() permissionIdentity {
	return permissionIdentity{RoleID: m.RoleID, ResourceServerIdentifier: m.ResourceServerIdentifier, PermissionName: m.PermissionName}
}

func (r *permissionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	attr := func(description string) identityschema.StringAttribute {
		return identityschema.StringAttribute{Description: description, RequiredForImport: true}
	}
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"role_id":                    attr("The role's ID (rol_...)."),
			"resource_server_identifier": attr("The identifier (audience) of the API that defines the permission."),
			"permission_name":            attr("The scope's value."),
		},
	}
}

func (r *permissionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "One permission of a role: an API's identifier paired with a scope that API defines. The role's " +
			"other permissions are left alone, so several of these (and permissions assigned outside Terraform) can share a role.\n\n" +
			"**Do not use it on a role that `tenant_role_permissions` manages.** That resource is authoritative: its next apply " +
			"removes this pair, and the apply after assigns it again, a permanent diff. The plan warns when one configuration " +
			"does both.\n\n" +
			"The pair is not owned exclusively: if the role already holds it (assigned outside Terraform, or by another " +
			"`tenant_role_permission` with the same pair), creating this resource changes nothing, and destroying it removes " +
			"the pair from the role all the same. Declare each pair once.\n\n" +
			switchingTypesDoc,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "`<role_id>::<resource_server_identifier>::<permission_name>`, also the import ID.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"role_id": schema.StringAttribute{
				MarkdownDescription: "ID of the role (`rol_` followed by letters and digits). Changing it replaces the resource.",
				Required:            true,
				Validators:          []validator.String{validate.RoleID()},
				PlanModifiers:       replace,
			},
			"resource_server_identifier": schema.StringAttribute{
				MarkdownDescription: "The identifier (audience) of the API that defines the permission, not its id " +
					"(1 to 600 characters). Changing it replaces the resource.",
				Required:      true,
				Validators:    []validator.String{stringvalidator.UTF8LengthBetween(1, 600)},
				PlanModifiers: replace,
			},
			"permission_name": schema.StringAttribute{
				MarkdownDescription: "The scope's value, e.g. `read:orders` (1 to 280 characters, without white space). Changing it replaces the resource.",
				Required:            true,
				Validators:          validate.ScopeValue(),
				PlanModifiers:       replace,
			},
		},
	}
}

// ModifyPlan counts the resources of the configuration that manage the
// role's permissions: a pair declared twice is not owned by either, and
// tenant_role_permissions beside it on the role would undo it on every apply.
// On create it checks what the tenant would refuse: a role that does not
// exist, a scope the API does not define (checkPairs).
func (r *permissionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var m permissionModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if m.RoleID.IsUnknown() || m.ResourceServerIdentifier.IsUnknown() || m.PermissionName.IsUnknown() {
		return
	}
	roleID, pair := m.RoleID.ValueString(), m.pair()
	if !req.State.Raw.IsNull() {
		var state permissionModel
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
			return
		}
		if state.pair() != pair || !state.RoleID.Equal(m.RoleID) {
			// A replacement: Terraform plans it again as a create, which
			// claims the pair.
			return
		}
	}
	if req.State.Raw.IsNull() && r.Tenant.Configured() {
		if _, ok := checkRole(ctx, r.Tenant, roleID, &resp.Diagnostics); ok {
			checkPairs(ctx, r.Tenant, roleID, []mgmt.Permission{pair}, path.Root("permission_name"), &resp.Diagnostics)
		}
	}
	instances, mixed := r.Tenant.RolePermissions.ClaimPair(roleID, pair)
	if instances == 2 {
		resp.Diagnostics.AddAttributeWarning(path.Root("permission_name"), "Role permission declared twice", fmt.Sprintf(
			"Two %s resources in this configuration assign %s on %s to role %q. Neither owns the pair: destroying either "+
				"removes it from the role. Declare each pair once.", PermissionTypeName, pair.PermissionName, pair.ResourceServerIdentifier, roleID))
	}
	if mixed {
		resp.Diagnostics.AddAttributeWarning(path.Root("role_id"), "Role permissions managed by two resource types", mixedUseDetail(roleID))
	}
}

// Create assigns the pair: one POST, whose answer is `{}` (reference §3),
// so the state is the pair the API accepted.
func (r *permissionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m permissionModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	roleID, pair := m.RoleID.ValueString(), m.pair()
	if _, err := r.Tenant.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair}, nil); err != nil {
		resp.Diagnostics.AddError("Unable to assign role permission", writeErrorDetail(roleID,
			"Add the scope to the API's scopes, or correct resource_server_identifier (the API's identifier, not its id) or permission_name.", err))
		return
	}
	m.fromAPI(roleID, pair)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, m.identity(), &resp.Diagnostics)
}

func (r *permissionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m permissionModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, m.identity(), &resp.Diagnostics)
	roleID, want := m.RoleID.ValueString(), m.pair()
	perms, err := r.Tenant.RolePermissions.Read(ctx, roleID)
	if mgmt.IsNotFound(err) {
		resp.Diagnostics.AddWarning("Resource not found, removed from state", fmt.Sprintf(
			"The role %q no longer exists (it was deleted outside Terraform), so its permission %s on %s was removed from the state.\n\n"+
				"Create the role again (or point role_id at another role) before the next apply.", roleID, want.PermissionName, want.ResourceServerIdentifier))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read role permission",
			framework.APIErrorDetail(fmt.Sprintf("Reading the permissions of role %q", roleID), err))
		return
	}
	got, ok := hasPair(perms, want)
	if !ok {
		framework.Gone(ctx, resp, PermissionTypeName, pairID(roleID, want))
		return
	}
	m.fromAPI(roleID, got)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Update is never called: every argument replaces the resource.
func (r *permissionResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Unable to update role permission",
		"Every argument of tenant_role_permission replaces it, so an in-place update cannot happen. This is a bug in the provider; please report it.")
}

// Delete removes this one pair; the role's other pairs stay. A role already
// gone is success. A pair another resource assigned in this apply (the same
// pair under a new for_each key, or a role switching to
// tenant_role_permissions) stays.
func (r *permissionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m permissionModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	roleID, pair := m.RoleID.ValueString(), m.pair()
	if _, err := r.Tenant.RolePermissions.Change(ctx, roleID, nil, []mgmt.Permission{pair}); err != nil {
		resp.Diagnostics.AddError("Unable to remove role permission", removalDetail(
			fmt.Sprintf("Removing the permission %s on %s from role %q", pair.PermissionName, pair.ResourceServerIdentifier, roleID), err))
	}
}

// ImportState takes <role_id>::<resource_server_identifier>::<permission_name>
// and checks that the role holds the pair.
func (r *permissionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const accepted = "<role_id>::<resource_server_identifier>::<permission_name>, " +
		"e.g. rol_k1SD22gLpZCOvGjd::https://api.example.com/orders/::read:orders"
	var roleID string
	var pair mgmt.Permission
	if req.ID == "" && req.Identity != nil {
		// Each identity value names its own part: they are not joined into an
		// import ID and parsed back, which would let a value move into
		// another part.
		var ident permissionIdentity
		if resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...); resp.Diagnostics.HasError() {
			return
		}
		roleID = ident.RoleID.ValueString()
		pair = mgmt.Permission{ResourceServerIdentifier: ident.ResourceServerIdentifier.ValueString(), PermissionName: ident.PermissionName.ValueString()}
		if problem := identityProblem(roleID, pair); problem != "" {
			resp.Diagnostics.AddError("Invalid import identity", fmt.Sprintf("The identity of %s %s.", PermissionTypeName, problem))
			return
		}
	} else {
		if resp.Diagnostics.Append(framework.CheckImportID(PermissionTypeName, req.ID, accepted)...); resp.Diagnostics.HasError() {
			return
		}
		var problem string
		if roleID, pair, problem = parsePairID(req.ID); problem != "" {
			resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("The import ID %q for %s %s. Use %s.", req.ID, PermissionTypeName, problem, accepted))
			return
		}
	}
	perms, err := r.Tenant.RolePermissions.Read(ctx, roleID)
	switch {
	case mgmt.IsNotFound(err):
		resp.Diagnostics.AddError("Unable to import role permission",
			fmt.Sprintf("No role has the id %q in the tenant. Check the role id in the import ID.", roleID))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to import role permission",
			framework.APIErrorDetail(fmt.Sprintf("Reading the permissions of role %q", roleID), err))
		return
	}
	got, ok := hasPair(perms, pair)
	if !ok {
		held := mgmt.Pairs(perms)
		detail := "it holds none"
		if len(held) > 0 {
			detail = fmt.Sprintf("it holds %d: %s", len(held), listPairs(held))
		}
		resp.Diagnostics.AddError("Unable to import role permission", fmt.Sprintf(
			"The role %q does not hold the permission %q on %q (%s). Names and identifiers are matched exactly; assign the "+
				"permission first, or correct the import ID.", roleID, pair.PermissionName, pair.ResourceServerIdentifier, detail))
		return
	}
	var m permissionModel
	m.fromAPI(roleID, got)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, m.identity(), &resp.Diagnostics)
}
