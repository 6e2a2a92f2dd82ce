package mgmtapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// createRole answers 200 (not 201) with the role; the answer omits a
// description that was not sent (reference §3).
//
// Assumptions (reference §3 is silent): a duplicate name is an exact,
// case-sensitive match; type is tenant (the default) or organization;
// organization needs owner_id (400 "Missing required property: owner_id"),
// and owner_id without type organization is refused with 400 on property
// owner_id.
func (s *Server) createRole(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("name", "description", "type", "owner_id"); e != nil {
		return e
	}
	name, e := b.Str("name", true, 1, 50)
	if e != nil {
		return e
	}
	ro := &tenant.Role{Name: name, Type: "tenant"}
	if b.Has("description") && !b.IsNull("description") {
		d, e := b.Str("description", false, 0, 140)
		if e != nil {
			return e
		}
		ro.Description = &d
	}
	if t, e := b.Enum("type", "tenant", "organization"); e != nil {
		return e
	} else if t != nil {
		ro.Type = *t
	}
	if b.Has("owner_id") && !b.IsNull("owner_id") {
		if ro.Type != "organization" {
			return wire.PayloadErr("owner_id is allowed only with type organization", "owner_id")
		}
		if ro.OwnerID, e = b.Str("owner_id", true, 1, 50); e != nil {
			return e
		}
	}
	if ro.Type == "organization" && ro.OwnerID == "" {
		return wire.PayloadErr("Missing required property: owner_id", "")
	}
	if s.roleNamed(name, "") != nil {
		return wire.NewErr(409, "The role already exists.", "")
	}
	if e := s.capReached(len(s.St.Roles)); e != nil {
		return e
	}
	ro.ID, ro.Seq = "rol_"+wire.RandomString(16), s.St.Next()
	s.St.Roles[ro.ID] = ro
	wire.WriteJSON(w, 200, ro)
	return nil
}

// roleNamed returns the role other than self with that name.
func (s *Server) roleNamed(name, self string) *tenant.Role {
	for _, other := range s.St.Roles {
		if other.Name == name && other.ID != self {
			return other
		}
	}
	return nil
}

func (s *Server) listRoles(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	page, perPage, totals, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	filter := strings.ToLower(r.URL.Query().Get("name_filter"))
	match := []wire.Ordered{}
	for _, ro := range tenant.SortedBySeq(s.St.Roles, func(r *tenant.Role) int64 { return r.Seq }) {
		if filter == "" || s.nameMatches(strings.ToLower(ro.Name), filter) {
			match = append(match, tenant.RoleView(ro))
		}
	}
	start, end := wire.Window(len(match), page, perPage)
	items := wire.Each(sel, match[start:end])
	if !totals {
		wire.WriteJSON(w, 200, items)
		return nil
	}
	wire.WriteJSON(w, 200, wire.Ordered{{"roles", items}, {"start", page * perPage}, {"limit", perPage}, {"total", len(match)}})
	return nil
}

// nameMatches reports whether a role's name matches name_filter, both
// lower case: case-insensitive (reference §3), and as a substring, a prefix
// or the whole name (Assume.RoleNameFilter; the reference leaves it open).
func (s *Server) nameMatches(name, filter string) bool {
	switch s.Assume.RoleNameFilter {
	case "prefix":
		return strings.HasPrefix(name, filter)
	case "exact":
		return name == filter
	}
	return strings.Contains(name, filter)
}

func (s *Server) role(r *http.Request) (*tenant.Role, *wire.Error) {
	return s.findRole(wire.PathID(r))
}

func (s *Server) findRole(id string) (*tenant.Role, *wire.Error) {
	ro, ok := s.St.Roles[id]
	if !ok {
		return nil, wire.NewErr(404, "The role does not exist.", "")
	}
	return ro, nil
}

func (s *Server) getRole(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	ro, e := s.role(r)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(tenant.RoleView(ro)))
	return nil
}

// updateRole changes name and description and answers the full role
// (reference §3).
//
// Assumptions (reference §3 is silent): renaming to the name of another
// role answers 409 "The role already exists.", as a duplicate create does;
// a null description clears it (GET then shows ""); a null name is a type
// error. A refused PATCH changes nothing.
func (s *Server) updateRole(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	ro, e := s.role(r)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("name", "description"); e != nil {
		return e
	}
	next := *ro
	if b.Has("name") {
		if next.Name, e = b.Str("name", true, 1, 50); e != nil {
			return e
		}
	}
	if b.IsNull("description") {
		next.Description = nil
	} else if b.Has("description") {
		d, e := b.Str("description", false, 0, 140)
		if e != nil {
			return e
		}
		next.Description = &d
	}
	if s.roleNamed(next.Name, ro.ID) != nil {
		return wire.NewErr(409, "The role already exists.", "")
	}
	*ro = next
	wire.WriteJSON(w, 200, tenant.RoleView(ro))
	return nil
}

func (s *Server) deleteRole(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	ro, e := s.role(r)
	if e != nil {
		return e
	}
	delete(s.St.Roles, ro.ID)
	delete(s.St.RolePerms, ro.ID)
	delete(s.St.RoleUsers, ro.ID)
	wire.WriteJSON(w, 200, map[string]any{})
	return nil
}

func (s *Server) listRolePermissions(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	ro, e := s.role(r)
	if e != nil {
		return e
	}
	page, perPage, totals, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	all := s.PermissionsOf(ro.ID)
	start, end := wire.Window(len(all), page, perPage)
	items := wire.Each(sel, all[start:end])
	if !totals {
		wire.WriteJSON(w, 200, items)
		return nil
	}
	wire.WriteJSON(w, 200, wire.Ordered{{"permissions", items}, {"start", page * perPage}, {"limit", perPage}, {"total", len(all)}})
	return nil
}

type permissionPair struct {
	ResourceServerIdentifier string `json:"resource_server_identifier"`
	PermissionName           string `json:"permission_name"`
}

// permissionBody reads {"permissions":[{resource_server_identifier, permission_name}, ...]}.
func permissionBody(r *http.Request) ([]permissionPair, *wire.Error) {
	b, e := wire.ReadBody(r)
	if e != nil {
		return nil, e
	}
	if e := b.Only("permissions"); e != nil {
		return nil, e
	}
	if !b.Has("permissions") {
		return nil, wire.PayloadErr("Missing required property: permissions", "")
	}
	var items []wire.Body
	if err := json.Unmarshal(b["permissions"], &items); err != nil {
		return nil, wire.PayloadErr("Expected type array but found type "+wire.JSONType(b["permissions"]), "permissions")
	}
	if len(items) == 0 {
		return nil, wire.PayloadErr("Array is too short (0), minimum 1", "permissions")
	}
	out := make([]permissionPair, 0, len(items))
	for i, it := range items {
		prop := "permissions[" + strconv.Itoa(i) + "]"
		if e := it.Only("resource_server_identifier", "permission_name"); e != nil {
			e.Message = strings.TrimSuffix(e.Message, ".") + " on property " + prop + "."
			return nil, e
		}
		ident, e := it.Str("resource_server_identifier", true, 1, 600)
		if e != nil {
			return nil, e
		}
		name, e := it.Str("permission_name", true, 1, 280)
		if e != nil {
			return nil, e
		}
		out = append(out, permissionPair{ident, name})
	}
	return out, nil
}

// addRolePermissions assigns the pairs and answers 201 {} (reference §3); a
// pair of an API that does not exist is 404 "The resource server does not
// exist: '<identifier>'" (reference §0.4, [R]) and nothing is assigned.
//
// Assumptions (reference §3, §8 leave these open): that 404 carries the
// errorCode inexistent_resource_server, as the resource server's own 404
// does (§0.4); an unknown role id is 404 "The role does not exist.", as
// GET is. Two more are settings: a permission the API does not define is
// 400 (errorCode invalid_body) and nothing is assigned, or is assigned
// (Assume.UndefinedScope); a pair the role already holds is accepted again,
// or 409 "The role already has the permission '<name>' of resource server
// '<identifier>'." (no errorCode) and nothing is assigned
// (Assume.HeldPermission).
func (s *Server) addRolePermissions(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	ro, e := s.role(r)
	if e != nil {
		return e
	}
	pairs, e := permissionBody(r)
	if e != nil {
		return e
	}
	perms := s.St.RolePerms[ro.ID]
	for _, p := range pairs {
		rs := s.FindResourceServer(p.ResourceServerIdentifier)
		if rs == nil {
			return wire.NewErr(404, "The resource server does not exist: '"+p.ResourceServerIdentifier+"'", "inexistent_resource_server")
		}
		if !rs.HasScope(p.PermissionName) && s.Assume.UndefinedScope == "refuse" {
			return wire.NewErr(400, "Permission '"+p.PermissionName+"' is not defined on resource server '"+p.ResourceServerIdentifier+"'.", "invalid_body")
		}
		if perms[p.ResourceServerIdentifier][p.PermissionName] && s.Assume.HeldPermission == "conflict" {
			return wire.NewErr(409, "The role already has the permission '"+p.PermissionName+"' of resource server '"+p.ResourceServerIdentifier+"'.", "")
		}
	}
	if perms == nil {
		perms = map[string]map[string]bool{}
		s.St.RolePerms[ro.ID] = perms
	}
	for _, p := range pairs {
		if perms[p.ResourceServerIdentifier] == nil {
			perms[p.ResourceServerIdentifier] = map[string]bool{}
		}
		perms[p.ResourceServerIdentifier][p.PermissionName] = true
	}
	wire.WriteJSON(w, 201, map[string]any{})
	return nil
}

// removeRolePermissions removes the assigned pairs among those listed and
// answers 204 with no body; pairs that are not assigned, including pairs of
// an API that does not exist, are no error (reference §0.5, §3: removing
// permissions that are not assigned answers 204, and 400 is the only error
// listed).
//
// Assumption (reference §3, §8 leave it open): an unknown role id is 404
// "The role does not exist.", as GET is.
func (s *Server) removeRolePermissions(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	ro, e := s.role(r)
	if e != nil {
		return e
	}
	pairs, e := permissionBody(r)
	if e != nil {
		return e
	}
	perms := s.St.RolePerms[ro.ID]
	for _, p := range pairs {
		if names := perms[p.ResourceServerIdentifier]; names != nil {
			delete(names, p.PermissionName)
			if len(names) == 0 {
				delete(perms, p.ResourceServerIdentifier)
			}
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusNoContent)
	return nil
}
