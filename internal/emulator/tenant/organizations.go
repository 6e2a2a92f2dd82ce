package tenant

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Organization is an organization (/organizations), its members and its
// enabled connections. The keys not modelled (branding, metadata,
// token_quota, ...) are kept as sent.
type Organization struct {
	ID          string                     `json:"id"`
	Name        string                     `json:"name"`
	DisplayName string                     `json:"display_name,omitempty"`
	Rest        map[string]json.RawMessage `json:"rest,omitempty"`
	// Members: user id -> when it was added (a Seq value).
	Members     map[string]int64 `json:"members"`
	Connections []*OrgConnection `json:"connections"`
	// MemberRoles: user id -> the ids of the roles the user has in it.
	MemberRoles map[string][]string `json:"member_roles,omitempty"`
	// Grants are the ids of the client grants associated with it.
	Grants []string `json:"client_grants,omitempty"`
	Seq    int64    `json:"seq"`
}

// OrgConnection is a connection enabled for an organization.
type OrgConnection struct {
	ConnectionID            string `json:"connection_id"`
	AssignMembershipOnLogin bool   `json:"assign_membership_on_login"`
	IsSignupEnabled         *bool  `json:"is_signup_enabled,omitempty"`
	ShowAsButton            bool   `json:"show_as_button"`
}

func (o *Organization) Clone() *Organization {
	x := *o
	x.Rest = maps.Clone(o.Rest)
	x.Members = maps.Clone(o.Members)
	x.Grants = slices.Clone(o.Grants)
	if o.MemberRoles != nil {
		x.MemberRoles = make(map[string][]string, len(o.MemberRoles))
		for k, v := range o.MemberRoles {
			x.MemberRoles[k] = slices.Clone(v)
		}
	}
	x.Connections = make([]*OrgConnection, 0, len(o.Connections))
	for _, c := range o.Connections {
		y := *c
		x.Connections = append(x.Connections, &y)
	}
	return &x
}

// View is the organization as GET /organizations/{id} shows it: id, name,
// display_name, then the other keys [O: go-auth0 v1.46.0
// TestOrganizationManager_Read.yaml].
func (o *Organization) View() wire.Ordered {
	v := wire.Ordered{{"id", o.ID}, {"name", o.Name}}
	if o.DisplayName != "" {
		v = append(v, wire.Ordered{{"display_name", o.DisplayName}}...)
	}
	for _, k := range sortedKeys(o.Rest) {
		v = append(v, wire.Ordered{{k, o.Rest[k]}}...)
	}
	return v
}

// OrgConnectionView is an enabled connection as the API shows it, with its
// connection's name and strategy [O: TestOrganizationManager_Connections.yaml].
func (s *Tenant) OrgConnectionView(oc *OrgConnection) wire.Ordered {
	v := wire.Ordered{{"connection_id", oc.ConnectionID}, {"assign_membership_on_login", oc.AssignMembershipOnLogin}}
	if oc.IsSignupEnabled != nil {
		v = append(v, wire.Ordered{{"is_signup_enabled", *oc.IsSignupEnabled}}...)
	}
	v = append(v, wire.Ordered{{"show_as_button", oc.ShowAsButton}}...)
	if c := s.St.Connections[oc.ConnectionID]; c != nil {
		v = append(v, wire.Ordered{{"connection", wire.Ordered{{"name", c.Name}, {"strategy", c.Strategy}}}}...)
	}
	return v
}

// OrganizationByIDOrName is the organization with that id, or else that
// name, or nil (the token endpoint's organization parameter and
// setOrganization take either: token-exchange-flow.md §5).
func (s *Tenant) OrganizationByIDOrName(v string) *Organization {
	if o := s.St.Organizations[v]; o != nil {
		return o
	}
	return s.OrganizationByName(v)
}

// OrganizationByName is the organization of that name, or nil (names are
// unique: mgmtapi's applyOrganization).
func (s *Tenant) OrganizationByName(name string) *Organization {
	for _, o := range s.St.Organizations {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// EnabledConnection is the organization's enabled connection of that id,
// or nil.
func (o *Organization) EnabledConnection(connectionID string) *OrgConnection {
	i := slices.IndexFunc(o.Connections, func(c *OrgConnection) bool { return c.ConnectionID == connectionID })
	if i < 0 {
		return nil
	}
	return o.Connections[i]
}

// ForgetUser removes a deleted user from every organization.
func (s *Tenant) ForgetUser(userID string) {
	for _, o := range s.St.Organizations {
		delete(o.Members, userID)
		delete(o.MemberRoles, userID)
	}
}

// ForgetConnection removes a deleted connection from every organization.
func (s *Tenant) ForgetConnection(connectionID string) {
	for _, o := range s.St.Organizations {
		o.Connections = slices.DeleteFunc(o.Connections, func(c *OrgConnection) bool { return c.ConnectionID == connectionID })
	}
}

// snapshotOrgs adds the connections and the organizations (with their
// members and enabled connections) to a snapshot.
func (s *Tenant) snapshotOrgs(out *State) {
	for _, c := range SortedBySeq(s.St.Connections, func(c *Connection) int64 { return c.Seq }) {
		out.Connections = append(out.Connections, wire.MustJSON(c.View()))
	}
	for _, o := range SortedBySeq(s.St.Organizations, func(o *Organization) int64 { return o.Seq }) {
		members := make([]string, 0, len(o.Members))
		for id := range o.Members {
			members = append(members, id)
		}
		slices.Sort(members)
		conns := make([]wire.Ordered, 0, len(o.Connections))
		for _, oc := range o.Connections {
			conns = append(conns, s.OrgConnectionView(oc))
		}
		out.Organizations = append(out.Organizations, wire.MustJSON(append(o.View(), wire.Ordered{{"members", members}, {"enabled_connections", conns}}...)))
	}
}

// ForgetGrant removes a deleted client grant from every organization.
func (s *Tenant) ForgetGrant(grantID string) {
	for _, o := range s.St.Organizations {
		o.Grants = slices.DeleteFunc(o.Grants, func(id string) bool { return id == grantID })
	}
}
