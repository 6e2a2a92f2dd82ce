package role

import (
	"context"
	"fmt"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var (
	_ list.ListResourceWithConfigure = (*roleList)(nil)
	_ list.ListResourceWithConfigure = (*permissionsExclusiveList)(nil)
)

// NewListResource returns the tenant_role list resource.
func NewListResource() list.ListResource { return &roleList{} }

// NewPermissionsExclusiveListResource returns the tenant_role_permissions list resource: the
// permission sets of the tenant's roles.
func NewPermissionsExclusiveListResource() list.ListResource { return &permissionsExclusiveList{} }

type roleList struct {
	framework.WithTenant
}

type permissionsExclusiveList struct {
	framework.WithTenant
}

// roleListModel filters by name as the API does: name_filter is a
// case-insensitive match whose exact semantics the reference leaves open
// (reference §3, §8).
type roleListModel struct {
	NameFilter types.String `tfsdk:"name_filter"`
}

func roleListSchema(what string) listschema.Schema {
	return listschema.Schema{
		MarkdownDescription: "Lists " + what + ", 100 roles per request, for `terraform query`.",
		Attributes: map[string]listschema.Attribute{
			"name_filter": listschema.StringAttribute{
				MarkdownDescription: "Only roles whose name matches, as the tenant matches it (case-insensitive, part of the name).",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 50)},
			},
		},
	}
}

func (l *roleList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (l *roleList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = roleListSchema("the tenant's roles")
}

func (l *roleList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg roleListModel
	if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = framework.ListResults(ctx, req, l.Tenant.API.EachRole(ctx, cfg.NameFilter.ValueString()), "roles",
		func(r *mgmt.Role, result *list.ListResult) bool {
			result.DisplayName = r.Name
			framework.SetIdentity(ctx, result.Identity, framework.IDIdentity{ID: types.StringValue(r.ID)}, &result.Diagnostics)
			if req.IncludeResource {
				var m roleModel
				m.fromAPI(r)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}

func (l *permissionsExclusiveList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = PermissionsExclusiveTypeName
}

func (l *permissionsExclusiveList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = roleListSchema("the permission sets of the tenant's roles (one result per role that holds any; " +
		"each role's permissions cost one more paged read)")
}

// rolePermissions is a role with the permissions it holds.
type rolePermissions struct {
	role  *mgmt.Role
	perms []mgmt.RolePermission
}

func (l *permissionsExclusiveList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg roleListModel
	if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	withPerms := func(yield func(rolePermissions, error) bool) {
		for r, err := range l.Tenant.API.EachRole(ctx, cfg.NameFilter.ValueString()) {
			var perms []mgmt.RolePermission
			if err == nil {
				perms, err = l.Tenant.API.RolePermissions(ctx, r.ID)
			}
			if !yield(rolePermissions{r, perms}, err) || err != nil {
				return
			}
		}
	}
	stream.Results = framework.ListResults(ctx, req, iter.Seq2[rolePermissions, error](withPerms), "role permissions",
		func(rp rolePermissions, result *list.ListResult) bool {
			// The resource holds at least one pair: a role without
			// permissions has nothing to adopt.
			if len(rp.perms) == 0 {
				return false
			}
			result.DisplayName = fmt.Sprintf("%s (%d permissions)", rp.role.Name, len(rp.perms))
			framework.SetIdentity(ctx, result.Identity, roleIdentity{RoleID: types.StringValue(rp.role.ID)}, &result.Diagnostics)
			if req.IncludeResource {
				var m permissionsExclusiveModel
				result.Diagnostics.Append(m.fromAPI(rp.role.ID, rp.perms)...)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}
