// Package rolepermissions is the tenant_role_permissions resource and the tenant_role data source.
package rolepermissions

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TypeName is the resource type.
const TypeName = "tenant_role_permissions"

var (
	_ resource.Resource                = (*permissionsResource)(nil)
	_ resource.ResourceWithConfigure   = (*permissionsResource)(nil)
	_ resource.ResourceWithImportState = (*permissionsResource)(nil)
)

// NewResource returns the tenant_role_permissions resource.
func NewResource() resource.Resource { return &permissionsResource{} }

type permissionsResource struct {
	api *mgmt.Client
}

func (r *permissionsResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *permissionsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete set of permissions of one role. This resource is **authoritative**: permissions " +
			"assigned to the role outside Terraform show as drift and are removed by the next apply. Use one " +
			"`tenant_role_permissions` per role.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The role's ID (the same as `role_id`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"role_id": schema.StringAttribute{
				MarkdownDescription: "ID of the role (`rol_...`). Changing it replaces the resource.",
				Required:            true,
				Validators:          nonEmpty,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"permissions": schema.SetNestedAttribute{
				MarkdownDescription: "The role's permissions, at least one. Each pairs an API's identifier with a scope that API defines. Updated in place.",
				Required:            true,
				Validators:          []validator.Set{setvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"resource_server_identifier": schema.StringAttribute{
						MarkdownDescription: "The identifier (audience) of the API that defines the permission, not its id.",
						Required:            true, Validators: nonEmpty,
					},
					"permission_name": schema.StringAttribute{
						MarkdownDescription: "The scope's value, e.g. `read:orders`.",
						Required:            true, Validators: nonEmpty,
					},
				}},
			},
		},
	}
}

func (r *permissionsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.api = framework.Client(req.ProviderData, &resp.Diagnostics)
}

func (r *permissionsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m permissionsModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	pairs, diags := m.pairs(ctx)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	roleID := m.RoleID.ValueString()
	if err := r.api.AddRolePermissions(ctx, roleID, pairs); err != nil {
		resp.Diagnostics.AddError("Unable to assign role permissions", writeErrorDetail(roleID, err))
		return
	}
	// The API answers the write with {}: the assigned set is what was sent.
	m.ID = m.RoleID
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *permissionsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m permissionsModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	roleID := m.RoleID.ValueString()
	perms, err := r.api.RolePermissions(ctx, roleID)
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
func (r *permissionsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state permissionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	want, d1 := plan.pairs(ctx)
	have, d2 := state.pairs(ctx)
	if resp.Diagnostics.Append(append(d1, d2...)...); resp.Diagnostics.HasError() {
		return
	}
	roleID := plan.RoleID.ValueString()
	added, removed := diff(want, have)
	if len(added) > 0 {
		if err := r.api.AddRolePermissions(ctx, roleID, added); err != nil {
			resp.Diagnostics.AddError("Unable to assign role permissions", writeErrorDetail(roleID, err))
			return
		}
	}
	if len(removed) > 0 {
		if err := r.api.RemoveRolePermissions(ctx, roleID, removed); err != nil {
			// The additions are in place; record them so nothing is lost.
			resp.Diagnostics.AddError("Unable to remove role permissions", framework.APIErrorDetail(fmt.Sprintf("Removing %d permissions from role %q", len(removed), roleID), err))
			// added holds only pairs not in have, so the role now holds both.
			partial := make([]mgmt.RolePermission, 0, len(have)+len(added))
			for _, p := range append(have, added...) {
				partial = append(partial, mgmt.RolePermission{Permission: p})
			}
			resp.Diagnostics.Append(state.fromAPI(roleID, partial)...)
			resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
			return
		}
	}
	plan.ID = plan.RoleID
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *permissionsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m permissionsModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	pairs, diags := m.pairs(ctx)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() || len(pairs) == 0 {
		return
	}
	if err := r.api.RemoveRolePermissions(ctx, m.RoleID.ValueString(), pairs); err != nil {
		resp.Diagnostics.AddError("Unable to remove role permissions", framework.APIErrorDetail(fmt.Sprintf("Removing the permissions of role %q", m.RoleID.ValueString()), err))
	}
}

// ImportState takes the role id; Read lists its permissions.
func (r *permissionsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" {
		resp.Diagnostics.AddError("Unable to import role permissions", "The import ID is empty. Use the role's id (rol_...).")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("role_id"), req.ID)...)
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
