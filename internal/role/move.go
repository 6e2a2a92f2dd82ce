package role

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var (
	_ resource.ResourceWithMoveState = (*roleResource)(nil)
	_ resource.ResourceWithMoveState = (*permissionsExclusiveResource)(nil)
	_ resource.ResourceWithMoveState = (*permissionResource)(nil)
)

// incumbentRole is the state of the incumbent's auth0_role.
type incumbentRole struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// MoveState takes over an auth0_role (a moved block): the same attributes.
func (r *roleResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_role",
		func(ctx context.Context, src incumbentRole, resp *resource.MoveStateResponse) {
			m := roleModel{ID: types.StringValue(src.ID), Name: types.StringValue(src.Name), Description: types.StringValue(src.Description)}
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
		})}
}

// incumbentRolePermissions is the state of the incumbent's
// auth0_role_permissions: a set of blocks, one per pair.
type incumbentRolePermissions struct {
	RoleID      string `json:"role_id"`
	Permissions []struct {
		Name                     string `json:"name"`
		ResourceServerIdentifier string `json:"resource_server_identifier"`
	} `json:"permissions"`
}

// MoveState takes over an auth0_role_permissions (a moved block): its
// permission blocks become the map of API identifier to names.
func (r *permissionsExclusiveResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_role_permissions",
		func(ctx context.Context, src incumbentRolePermissions, resp *resource.MoveStateResponse) {
			pairs := make([]mgmt.Permission, 0, len(src.Permissions))
			for _, p := range src.Permissions {
				pairs = append(pairs, mgmt.Permission{ResourceServerIdentifier: p.ResourceServerIdentifier, PermissionName: p.Name})
			}
			var m permissionsExclusiveModel
			resp.Diagnostics.Append(m.fromPairs(src.RoleID, pairs)...)
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, roleIdentity{RoleID: m.RoleID}, &resp.Diagnostics)
		})}
}

// incumbentRolePermission is the state of the incumbent's
// auth0_role_permission, whose id has the same form as this one's.
type incumbentRolePermission struct {
	RoleID                   string `json:"role_id"`
	ResourceServerIdentifier string `json:"resource_server_identifier"`
	Permission               string `json:"permission"`
}

// MoveState takes over an auth0_role_permission (a moved block); its
// permission becomes permission_name.
func (r *permissionResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_role_permission",
		func(ctx context.Context, src incumbentRolePermission, resp *resource.MoveStateResponse) {
			var m permissionModel
			m.fromAPI(src.RoleID, mgmt.Permission{ResourceServerIdentifier: src.ResourceServerIdentifier, PermissionName: src.Permission})
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, m.identity(), &resp.Diagnostics)
		})}
}
