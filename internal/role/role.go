package role

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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

// Bounds of a role's fields. Assumption (reference §3 gives none): the
// emulator's bounds, name 1 to 50 characters and description up to 140,
// counted in characters.
const (
	maxName        = 50
	maxDescription = 140
)

var (
	_ resource.Resource                = (*roleResource)(nil)
	_ resource.ResourceWithConfigure   = (*roleResource)(nil)
	_ resource.ResourceWithImportState = (*roleResource)(nil)
	_ resource.ResourceWithIdentity    = (*roleResource)(nil)
)

// creation names a role with the name in create and plan diagnostics.
func creation(name string) framework.Creation {
	return framework.Creation{TypeName: TypeName, Summary: "role", Noun: "role", Key: "name", Value: name, ImportByKey: true}
}

// NewResource returns the tenant_role resource.
func NewResource() resource.Resource { return &roleResource{} }

type roleResource struct {
	framework.WithTenant
}

// object names a role in the diagnostics of its delete.
var object = framework.Object{TypeName: TypeName, Summary: "role", Noun: "role"}

func (r *roleResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *roleResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The role's ID (rol_...).")
}

func (r *roleResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A role: a named set of permissions that users are given together. Assign its permissions with " +
			"`tenant_role_permissions` (all of them, authoritative) or `tenant_role_permission` (one pair each), not both. " +
			"Deleting the role removes its permissions and takes it away from its users.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The role's ID (`rol_` followed by 16 characters). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The role's name, 1 to %d characters, unique in the tenant (case-sensitive). "+
					"Updated in place.", maxName),
				Required:   true,
				Validators: []validator.String{stringvalidator.UTF8LengthBetween(1, maxName)},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("What the role is for, up to %d characters. Defaults to an empty string "+
					"(no description, the tenant's default); removing it clears the description. Updated in place.", maxDescription),
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(""),
				Validators: []validator.String{stringvalidator.UTF8LengthAtMost(maxDescription)},
			},
		},
	}
}

func (r *roleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m roleModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	sent := m.toCreate()
	role, outcome, err := mgmt.SafeCreate(ctx, 3,
		func() (*mgmt.Role, error) { return r.Tenant.API.CreateRole(ctx, sent) },
		func() (*mgmt.Role, error) { return r.Tenant.API.FindRole(ctx, sent.Name) },
		func(found *mgmt.Role) bool { return found.Name == sent.Name && found.Description == sent.Description })
	var found *framework.Found
	if role != nil {
		found = &framework.Found{ID: role.ID, Description: fmt.Sprintf("description %q", role.Description)}
	}
	if !creation(sent.Name).Result(found, outcome, err, func(err error) string {
		return framework.APIErrorDetail(fmt.Sprintf("Creating the role %q", sent.Name), err)
	}, &resp.Diagnostics) {
		return
	}
	m.fromAPI(role)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
}

func (r *roleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m roleModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	role, err := r.Tenant.Roles.Read(ctx, m.ID.ValueString())
	if mgmt.IsNotFound(err) {
		framework.Gone(ctx, resp, TypeName, m.ID.ValueString())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read role", framework.APIErrorDetail(fmt.Sprintf("Reading the role %q", m.ID.ValueString()), err))
		return
	}
	m.fromAPI(role)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *roleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state roleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	role, err := r.Tenant.API.UpdateRole(ctx, id, plan.toUpdate(state))
	switch {
	case mgmt.IsConflict(err):
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Unable to update role", r.renameConflictDetail(ctx, id, plan.Name.ValueString(), err))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to update role", framework.APIErrorDetail(fmt.Sprintf("Updating the role %q", id), err))
		return
	}
	plan.fromAPI(role)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
}

// renameConflictDetail explains a 409 on PATCH: another role holds the
// name (assumption, reference §3 lists no 409 for PATCH; the emulator
// answers it as a duplicate create does). The other role is looked up to
// name it; the look-up failing only leaves its id out.
func (r *roleResource) renameConflictDetail(ctx context.Context, id, name string, err error) string {
	other := "another role"
	if roles, lerr := r.Tenant.API.FindRolesByName(ctx, name); lerr == nil && len(roles) > 0 {
		other = fmt.Sprintf("another role (id %s)", mgmt.RoleIDs(roles))
	}
	return fmt.Sprintf("The role %q was not renamed to %q: %s already has that name, and role names are unique in the tenant.\n\n"+
		"Choose another name, or rename or delete the other role first.\n\n%s",
		id, name, other, framework.APIErrorDetail(fmt.Sprintf("Renaming the role %q", id), err))
}

func (r *roleResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	object.Delete(ctx, req, resp, r.Tenant.API.DeleteRole)
}

// ImportState accepts the role's id or its exact name. An id-shaped value
// is read as an id first, and looked up as a name when no role has that id.
func (r *roleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const accepted = "the role's id (rol_...) or its exact name"
	name := framework.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.Append(framework.CheckImportID(TypeName, name, accepted)...); resp.Diagnostics.HasError() {
		return
	}
	if validate.RoleIDPattern.MatchString(name) {
		role, err := r.Tenant.API.GetRole(ctx, name)
		switch {
		case err == nil:
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), role.ID)...)
			return
		case !mgmt.IsNotFound(err):
			resp.Diagnostics.AddError("Unable to import role", framework.APIErrorDetail(fmt.Sprintf("Reading the role %q", name), err))
			return
		}
	}
	roles, err := r.Tenant.API.FindRolesByName(ctx, name)
	if err != nil {
		resp.Diagnostics.AddError("Unable to import role", framework.APIErrorDetail(fmt.Sprintf("Looking up the role named %q", name), err))
		return
	}
	role, problem := pickRole(name, roles)
	if problem != "" {
		if len(roles) == 0 && validate.RoleIDPattern.MatchString(name) {
			problem = fmt.Sprintf("No role has the id %q, and none is named so exactly (names are case-sensitive).", name)
		}
		resp.Diagnostics.AddError("Unable to import role", fmt.Sprintf("%s Import by %s.", problem, accepted))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), role.ID)...)
}

// pickRole returns the one role of roles (those named name exactly), or
// says why there is not one.
func pickRole(name string, roles []mgmt.Role) (*mgmt.Role, string) {
	switch len(roles) {
	case 0:
		return nil, fmt.Sprintf("No role is named exactly %q in the tenant (names are case-sensitive).", name)
	case 1:
		return &roles[0], ""
	}
	return nil, fmt.Sprintf("%d roles are named %q (ids %s), so the name does not say which one is meant.", len(roles), name, mgmt.RoleIDs(roles))
}

var _ resource.ResourceWithModifyPlan = (*roleResource)(nil)

// ModifyPlan checks, at plan time, a role name another role of the tenant
// already holds (on create, or on a rename): the tenant would refuse it.
// A name unknown until apply is not checked; a read the tenant refuses
// skips the check with a warning.
func (r *roleResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Tenant.Configured() {
		return
	}
	var plan, state roleModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || plan.Name.IsUnknown() {
		return
	}
	own := framework.ManagedID(ctx, req, resp)
	if !req.State.Raw.IsNull() {
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || plan.Name.Equal(state.Name) {
			return
		}
	}
	name := plan.Name.ValueString()
	found, err := r.Tenant.Roles.Find(ctx, name)
	switch {
	case err != nil:
		framework.CheckSkipped(&resp.Diagnostics, path.Root("name"), fmt.Sprintf("whether a role named %q exists", name), err)
	case found != nil && found.ID != own:
		creation(name).Taken(framework.Found{ID: found.ID}, &resp.Diagnostics)
	}
}
