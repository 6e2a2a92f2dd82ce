package mgmtapi

import (
	"net/http"
	"slices"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// The roles of an organization's members
// (/organizations/{id}/members/{user_id}/roles), as recorded [O: go-auth0
// v1.46.0 TestOrganizationManager_MemberRoles.yaml, _Members.yaml]: roles
// may be assigned before the user is a member (recorded), and a deleted
// role is no longer listed.

// assignMemberRoles answers 204 (recorded). The body is {"roles": [role
// ids]} (idList; assumption: an id of no role is 404 "The role does not
// exist.", nothing changed).
func (s *Server) assignMemberRoles(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	user, e := s.findUser(r.PathValue("userId"))
	if e != nil {
		return e
	}
	ids, e := idList(r, "roles", refuseRepeats, s.findRole)
	if e != nil {
		return e
	}
	if o.MemberRoles == nil {
		o.MemberRoles = map[string][]string{}
	}
	for _, id := range ids {
		if !slices.Contains(o.MemberRoles[user.UserID], id) {
			o.MemberRoles[user.UserID] = append(o.MemberRoles[user.UserID], id)
		}
	}
	wire.NoContent(w)
	return nil
}

// removeMemberRoles answers 204 (recorded).
func (s *Server) removeMemberRoles(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	ids, e := idList(r, "roles", refuseRepeats, s.findRole)
	if e != nil {
		return e
	}
	userID := r.PathValue("userId")
	o.MemberRoles[userID] = slices.DeleteFunc(o.MemberRoles[userID], func(id string) bool { return slices.Contains(ids, id) })
	wire.NoContent(w)
	return nil
}

// listMemberRoles lists a member's roles as {id, name, description}:
// offset pages, with include_totals {"roles","start","limit","total"}
// (recorded).
func (s *Server) listMemberRoles(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	return writeList(w, r, s.FieldsEverywhere, "roles", s.memberRoleViews(o.MemberRoles[r.PathValue("userId")], true), false)
}

// memberRoleViews are the roles of ids that still exist, with their
// description or (in the members' list) without.
func (s *Server) memberRoleViews(ids []string, description bool) []wire.Ordered {
	out := []wire.Ordered{}
	for _, id := range ids {
		ro := s.St.Roles[id]
		if ro == nil {
			continue
		}
		v := wire.Ordered{{"id", ro.ID}, {"name", ro.Name}}
		if description && ro.Description != nil {
			v = append(v, wire.Ordered{{"description", *ro.Description}}...)
		}
		out = append(out, v)
	}
	return out
}
