package mgmtapi

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Organizations (/organizations), their members and their enabled
// connections, as recorded [O: go-auth0 v1.46.0 TestOrganizationManager_*.yaml]
// and as go-auth0's OrganizationManager sends them [S]. branding, metadata
// and token_quota are kept as sent.

// organizationName is the name's rule (go-auth0's Organization.Name is
// free; the published specification: lowercase letters, digits, - and _,
// starting and ending with a letter or digit), 1–50 characters.
var organizationName = regexp.MustCompile(`^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$`)

// organizationRest are the keys kept as sent.
var organizationRest = []string{"branding", "metadata", "token_quota"}

func (s *Server) findOrganization(id string) (*tenant.Organization, *wire.Error) {
	o, ok := s.St.Organizations[id]
	if !ok {
		// Assumption: the wording of the recorded enabled connection's 404.
		return nil, wire.NewErr(404, "No organization found by that id", "")
	}
	return o, nil
}

// applyOrganization sets what the body sends of name, display_name and the
// keys kept as sent.
func (s *Server) applyOrganization(o *tenant.Organization, b wire.Body) *wire.Error {
	body := b.At("")
	if body.Has("name") {
		name, e := body.Str("name", true, 1, 50)
		if e != nil {
			return e
		}
		if !organizationName.MatchString(name) {
			return wire.PayloadErr("String does not match pattern ^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$: "+name, "name")
		}
		if other := s.OrganizationByIDOrName(name); other != nil && other.ID != o.ID {
			// Assumption (not recorded): 409 with this text.
			return wire.NewErr(409, "An organization with this name already exists.", "conflict")
		}
		o.Name = name
	}
	if body.Has("display_name") {
		v, e := body.Str("display_name", false, 1, 255)
		if e != nil {
			return e
		}
		o.DisplayName = v
	}
	for _, k := range organizationRest {
		if !body.Has(k) {
			continue
		}
		if body.IsNull(k) {
			delete(o.Rest, k)
			continue
		}
		if _, _, e := body.Object(k); e != nil {
			return e
		}
		if o.Rest == nil {
			o.Rest = map[string]json.RawMessage{}
		}
		o.Rest[k], _ = wire.CompactJSON(b[k])
	}
	return nil
}

// createOrganization answers 201 with the organization, and its enabled
// connections when the body gives some (recorded).
func (s *Server) createOrganization(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only(append([]string{"name", "display_name", "enabled_connections"}, organizationRest...)...); e != nil {
		return e
	}
	if e := b.At("").Require("name"); e != nil {
		return e
	}
	if e := s.capReached(len(s.St.Organizations)); e != nil {
		return e
	}
	o := &tenant.Organization{ID: "org_" + wire.RandomString(16), Members: map[string]int64{}}
	if e := s.applyOrganization(o, b); e != nil {
		return e
	}
	items, sent, e := b.At("").Array("enabled_connections")
	if e != nil {
		return e
	}
	for i, raw := range items {
		oc, e := s.readOrgConnection(raw, "enabled_connections["+strconv.Itoa(i)+"]", nil)
		if e != nil {
			return e
		}
		if o.EnabledConnection(oc.ConnectionID) == nil {
			o.Connections = append(o.Connections, oc)
		}
	}
	o.Seq = s.St.Next()
	s.St.Organizations[o.ID] = o
	v := o.View()
	if sent {
		v = append(v, wire.Ordered{{"enabled_connections", s.orgConnectionViews(o)}}...)
	}
	wire.WriteJSON(w, 201, v)
	return nil
}

func (s *Server) orgConnectionViews(o *tenant.Organization) []wire.Ordered {
	out := make([]wire.Ordered, 0, len(o.Connections))
	for _, oc := range o.Connections {
		out = append(out, s.OrgConnectionView(oc))
	}
	return out
}

// readOrgConnection reads an enabled connection item; with base (an
// update) connection_id is not taken and the other keys change base's.
//
// Assumptions: a connection_id of no connection is 404 "No connection
// found by that id" (the recorded wording of an enabled connection's 404);
// show_as_button defaults to true (recorded), assign_membership_on_login
// to false; is_signup_enabled is shown only when sent.
func (s *Server) readOrgConnection(raw json.RawMessage, at string, base *tenant.OrgConnection) (*tenant.OrgConnection, *wire.Error) {
	o, ok, e := wire.AsObject(raw, at)
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, wire.PayloadErr("Expected type object but found type "+wire.JSONType(raw), at)
	}
	keys := []string{"assign_membership_on_login", "show_as_button", "is_signup_enabled"}
	oc := &tenant.OrgConnection{ShowAsButton: true}
	if base != nil {
		x := *base
		oc = &x
	} else {
		keys = append(keys, "connection_id")
	}
	if e := o.Only(keys...); e != nil {
		return nil, e
	}
	if base == nil {
		if e := o.Require("connection_id"); e != nil {
			return nil, e
		}
		id, e := o.Str("connection_id", true, 1, 0)
		if e != nil {
			return nil, e
		}
		if _, known := s.St.Connections[id]; !known {
			return nil, wire.NewErr(404, "No connection found by that id", "")
		}
		oc.ConnectionID = id
	}
	for k, dst := range map[string]*bool{"assign_membership_on_login": &oc.AssignMembershipOnLogin, "show_as_button": &oc.ShowAsButton} {
		v, e := o.Bool(k)
		if e != nil {
			return nil, e
		}
		if v != nil {
			*dst = *v
		}
	}
	v, e := o.Bool("is_signup_enabled")
	if e != nil {
		return nil, e
	}
	if v != nil {
		oc.IsSignupEnabled = v
	}
	// go-auth0 v1.46.0 TestOrganizationManager_UpdateDBConnection, run
	// against a tenant [S]: sign-up needs a database connection that
	// assigns membership on login.
	if c := s.St.Connections[oc.ConnectionID]; oc.IsSignupEnabled != nil && *oc.IsSignupEnabled && (!oc.AssignMembershipOnLogin || c == nil || c.Strategy != "auth0") {
		return nil, wire.NewErr(400, "Only database connections with assign_membership_on_login = true support is_signup_enabled = true.", "invalid_body")
	}
	return oc, nil
}

// orgConnectionBody reads a request's body as an enabled connection item.
func (s *Server) orgConnectionBody(r *http.Request, base *tenant.OrgConnection) (*tenant.OrgConnection, *wire.Error) {
	var raw json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		return nil, wire.NewErr(400, "Invalid request payload JSON format", "")
	}
	return s.readOrgConnection(raw, "", base)
}

// listOrganizations lists in creation order: offset pages, with
// include_totals {"organizations","start","limit","total"} (recorded), or
// checkpoint pages with from/take.
func (s *Server) listOrganizations(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	var all []wire.Ordered
	for _, o := range tenant.SortedBySeq(s.St.Organizations, func(o *tenant.Organization) int64 { return o.Seq }) {
		all = append(all, o.View())
	}
	return writeList(w, r, s.FieldsEverywhere, "organizations", all, false)
}

func (s *Server) getOrganization(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, o.View())
	return nil
}

// organizationPart answers GET /organizations/name/{name},
// /organizations/{id}/members and /organizations/{id}/enabled_connections,
// each with its scope.
func (s *Server) organizationPart(w http.ResponseWriter, r *http.Request, c *caller) *wire.Error {
	part := r.PathValue("part")
	switch {
	case wire.PathID(r) == "name":
		if e := c.may("read:organizations"); e != nil {
			return e
		}
		return s.getOrganizationByName(w, part)
	case part == "members":
		if e := c.may("read:organization_members"); e != nil {
			return e
		}
		return s.listMembers(w, r, c)
	case part == "enabled_connections":
		if e := c.may("read:organization_connections"); e != nil {
			return e
		}
		return s.listOrgConnections(w, r, c)
	case part == "client-grants":
		if e := c.may("read:organization_client_grants"); e != nil {
			return e
		}
		return s.organizationGrants(w, r, c)
	}
	s.logf(r, "not served: the emulator has no such route; see its guide for the routes it serves")
	return wire.NewErr(404, "Not Found", "")
}

// getOrganizationByName is GET /organizations/name/{name} (recorded).
func (s *Server) getOrganizationByName(w http.ResponseWriter, name string) *wire.Error {
	o := s.OrganizationByName(name)
	if o == nil {
		return wire.NewErr(404, "No organization found by that name", "")
	}
	wire.WriteJSON(w, 200, o.View())
	return nil
}

// updateOrganization answers 200 with the organization (recorded).
func (s *Server) updateOrganization(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only(append([]string{"name", "display_name"}, organizationRest...)...); e != nil {
		return e
	}
	next := o.Clone()
	if e := s.applyOrganization(next, b); e != nil {
		return e
	}
	s.St.Organizations[o.ID] = next
	wire.WriteJSON(w, 200, next.View())
	return nil
}

// deleteOrganization answers 204 (recorded). Assumption: 204 also for an
// organization already gone, as a user's delete.
func (s *Server) deleteOrganization(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	delete(s.St.Organizations, wire.PathID(r))
	wire.NoContent(w)
	return nil
}

// addMembers answers 204 (recorded). The body is {"members": [user ids]}
// (idList; assumption: an id of no user is 404 "The user does not exist.",
// nothing changed, as for a role's users).
func (s *Server) addMembers(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	ids, e := idList(r, "members", refuseRepeats, s.findUser)
	if e != nil {
		return e
	}
	at := s.St.Next()
	for _, id := range ids {
		if _, in := o.Members[id]; !in {
			o.Members[id] = at
		}
	}
	wire.NoContent(w)
	return nil
}

// removeMembers answers 204 (recorded).
func (s *Server) removeMembers(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	ids, e := idList(r, "members", refuseRepeats, s.findUser)
	if e != nil {
		return e
	}
	for _, id := range ids {
		delete(o.Members, id)
	}
	wire.NoContent(w)
	return nil
}

// listMembers lists the members (writeAddedUsers) as {user_id, email,
// picture, name} (go-auth0's OrganizationMember [S]), with include_totals
// {"members","start","limit","total"} (recorded); checkpoint pages keep
// next until a page comes back empty, unlike the other lists (recorded:
// TestOrganizationManager_MembersCheckpointPagination.yaml). With fields
// naming roles, each member's roles as {id, name} (recorded;
// organization_roles.go).
func (s *Server) listMembers(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	roles := strings.Contains(","+r.URL.Query().Get("fields")+",", ",roles,")
	member := func(u *tenant.User) wire.Ordered {
		m := u.Member()
		if roles {
			m = append(m, wire.Ordered{{"roles", s.memberRoleViews(o.MemberRoles[u.UserID], false)}}...)
		}
		return m
	}
	const fields, nextUntilEmpty = true, true
	return s.writeAddedUsers(w, r, "members", o.Members, member, fields, nextUntilEmpty)
}

// listOrgConnections lists the enabled connections: offset pages, with
// include_totals {"enabled_connections","start","limit","total"}
// (recorded).
func (s *Server) listOrgConnections(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	return writeList(w, r, s.FieldsEverywhere, "enabled_connections", s.orgConnectionViews(o), false)
}

// addOrgConnection answers 201 with the enabled connection (recorded).
// Assumption: a connection already enabled is 409.
func (s *Server) addOrgConnection(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	oc, e := s.orgConnectionBody(r, nil)
	if e != nil {
		return e
	}
	if o.EnabledConnection(oc.ConnectionID) != nil {
		return wire.NewErr(409, "The connection is already enabled for the organization.", "conflict")
	}
	o.Connections = append(o.Connections, oc)
	wire.WriteJSON(w, 201, s.OrgConnectionView(oc))
	return nil
}

func (s *Server) orgConnection(r *http.Request) (*tenant.Organization, *tenant.OrgConnection, *wire.Error) {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return nil, nil, e
	}
	oc := o.EnabledConnection(r.PathValue("connectionId"))
	if oc == nil {
		return nil, nil, wire.NewErr(404, "No connection found by that id", "") // recorded
	}
	return o, oc, nil
}

func (s *Server) getOrgConnection(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	_, oc, e := s.orgConnection(r)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, s.OrgConnectionView(oc))
	return nil
}

// updateOrgConnection answers 200 with the enabled connection (recorded).
func (s *Server) updateOrgConnection(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	_, oc, e := s.orgConnection(r)
	if e != nil {
		return e
	}
	next, e := s.orgConnectionBody(r, oc)
	if e != nil {
		return e
	}
	*oc = *next
	wire.WriteJSON(w, 200, s.OrgConnectionView(oc))
	return nil
}

// deleteOrgConnection answers 204 (recorded).
func (s *Server) deleteOrgConnection(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, oc, e := s.orgConnection(r)
	if e != nil {
		return e
	}
	o.Connections = slices.DeleteFunc(o.Connections, func(c *tenant.OrgConnection) bool { return c == oc })
	wire.NoContent(w)
	return nil
}
