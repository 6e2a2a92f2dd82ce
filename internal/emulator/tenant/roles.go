package tenant

import (
	"sort"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// RoleView is a role as GET shows it, in the observed key order:
// description always present, "" when none (reference §3).
func RoleView(ro *Role) wire.Ordered {
	o := wire.Ordered{{"id", ro.ID}, {"name", ro.Name}, {"description", wire.Deref(ro.Description)}, {"type", ro.Type}}
	if ro.OwnerID != "" {
		o = append(o, wire.Ordered{{"owner_id", ro.OwnerID}}...)
	}
	return o
}

type PermissionView struct {
	PermissionName           string `json:"permission_name"`
	Description              string `json:"description"`
	ResourceServerName       string `json:"resource_server_name"`
	ResourceServerIdentifier string `json:"resource_server_identifier"`
}

// PermissionsOf lists a role's permissions sorted by API identifier, then
// name, with description and API name copied from the API at read time.
func (s *Tenant) PermissionsOf(roleID string) []PermissionView {
	out := []PermissionView{}
	for ident, names := range s.St.RolePerms[roleID] {
		rs := s.FindResourceServer(ident)
		for name := range names {
			v := PermissionView{PermissionName: name, ResourceServerIdentifier: ident}
			if rs != nil {
				v.ResourceServerName = wire.Deref(rs.Name)
				if rs.Scopes != nil {
					for _, sc := range *rs.Scopes {
						if sc.Value == name {
							v.Description = wire.Deref(sc.Description)
						}
					}
				}
			}
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ResourceServerIdentifier != out[j].ResourceServerIdentifier {
			return out[i].ResourceServerIdentifier < out[j].ResourceServerIdentifier
		}
		return out[i].PermissionName < out[j].PermissionName
	})
	return out
}
