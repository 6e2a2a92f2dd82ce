package rolepermissions

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

type permissionsModel struct {
	ID          types.String `tfsdk:"id"`
	RoleID      types.String `tfsdk:"role_id"`
	Permissions types.Set    `tfsdk:"permissions"`
}

type pairModel struct {
	ResourceServerIdentifier types.String `tfsdk:"resource_server_identifier"`
	PermissionName           types.String `tfsdk:"permission_name"`
}

var pairType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"resource_server_identifier": types.StringType, "permission_name": types.StringType,
}}

// pairs returns the permissions of the model as API pairs.
func (m permissionsModel) pairs(ctx context.Context) ([]mgmt.Permission, diag.Diagnostics) {
	var items []pairModel
	diags := m.Permissions.ElementsAs(ctx, &items, false)
	out := make([]mgmt.Permission, 0, len(items))
	for _, p := range items {
		out = append(out, mgmt.Permission{ResourceServerIdentifier: p.ResourceServerIdentifier.ValueString(), PermissionName: p.PermissionName.ValueString()})
	}
	return out, diags
}

// fromAPI sets the permissions from what the API lists.
func (m *permissionsModel) fromAPI(roleID string, perms []mgmt.RolePermission) diag.Diagnostics {
	m.ID = types.StringValue(roleID)
	m.RoleID = types.StringValue(roleID)
	elems := make([]attr.Value, 0, len(perms))
	for _, p := range perms {
		elems = append(elems, types.ObjectValueMust(pairType.AttrTypes, map[string]attr.Value{
			"resource_server_identifier": types.StringValue(p.ResourceServerIdentifier),
			"permission_name":            types.StringValue(p.PermissionName),
		}))
	}
	set, diags := types.SetValue(pairType, elems)
	m.Permissions = set
	return diags
}

// diff returns the pairs in want but not in have, and in have but not in want.
func diff(want, have []mgmt.Permission) (added, removed []mgmt.Permission) {
	in := func(list []mgmt.Permission) map[mgmt.Permission]bool {
		m := make(map[mgmt.Permission]bool, len(list))
		for _, p := range list {
			m[p] = true
		}
		return m
	}
	w, h := in(want), in(have)
	for p := range w {
		if !h[p] {
			added = append(added, p)
		}
	}
	for p := range h {
		if !w[p] {
			removed = append(removed, p)
		}
	}
	sortPairs(added)
	sortPairs(removed)
	return added, removed
}

func sortPairs(p []mgmt.Permission) {
	sort.Slice(p, func(i, j int) bool {
		if p[i].ResourceServerIdentifier != p[j].ResourceServerIdentifier {
			return p[i].ResourceServerIdentifier < p[j].ResourceServerIdentifier
		}
		return p[i].PermissionName < p[j].PermissionName
	})
}
