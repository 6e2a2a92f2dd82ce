package mgmtapi

import (
	"net/http"
	"slices"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// The client grants associated with an organization, both ways
// (/organizations/{id}/client-grants, GET /client-grants/{id}/organizations),
// as recorded [O: go-auth0 v1.46.0 TestOrganizationManager_ClientGrants.yaml,
// TestClientGrantManager_Organizations.yaml; clients-and-grants.md].
//
// Assumptions: any grant may be associated (its organization_usage is not
// checked); a grant already associated is associated again without error;
// a grant deleted leaves every organization.

// orgGrantView is an association as POST answers it: the grant's fields
// with its id as grant_id (recorded).
func orgGrantView(g *tenant.Grant) wire.Ordered {
	v := wire.Ordered{{"grant_id", g.ID}, {"client_id", g.ClientID}, {"audience", g.Audience}, {"scope", g.Scope}}
	if g.OrganizationUsage != nil {
		v = append(v, wire.Ordered{{"organization_usage", *g.OrganizationUsage}}...)
	}
	if g.AllowAnyOrganization != nil {
		v = append(v, wire.Ordered{{"allow_any_organization", *g.AllowAnyOrganization}}...)
	}
	return v
}

// associateGrant answers 201 with the association (recorded).
func (s *Server) associateGrant(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("grant_id"); e != nil {
		return e
	}
	if e := b.At("").Require("grant_id"); e != nil {
		return e
	}
	id, e := b.Str("grant_id", true, 1, 0)
	if e != nil {
		return e
	}
	g, ok := s.St.Grants[id]
	if !ok {
		return wire.NewErr(404, "The grant does not exist.", "inexistent_client_grant")
	}
	if !slices.Contains(o.Grants, id) {
		o.Grants = append(o.Grants, id)
	}
	wire.WriteJSON(w, 201, orgGrantView(g))
	return nil
}

// organizationGrants lists the organization's grants as /client-grants
// shows them, {"client_grants","start","limit","total"} (recorded), only
// those grant_ids names when it is given (comma-separated).
func (s *Server) organizationGrants(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	var only []string
	if v := r.URL.Query().Get("grant_ids"); v != "" {
		only = strings.Split(v, ",")
	}
	var all []*tenant.Grant
	for _, id := range o.Grants {
		if g := s.St.Grants[id]; g != nil && (only == nil || slices.Contains(only, id)) {
			all = append(all, g)
		}
	}
	return writeList(w, r, s.FieldsEverywhere, "client_grants", all, false)
}

// dissociateGrant answers 204 (recorded).
func (s *Server) dissociateGrant(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	o, e := s.findOrganization(wire.PathID(r))
	if e != nil {
		return e
	}
	o.Grants = slices.DeleteFunc(o.Grants, func(id string) bool { return id == r.PathValue("grantId") })
	wire.NoContent(w)
	return nil
}

// grantOrganizations lists the organizations a grant is associated with,
// {"organizations","start","limit","total"} (recorded).
func (s *Server) grantOrganizations(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	g, e := s.lookupGrant(r)
	if e != nil {
		return e
	}
	var all []wire.Ordered
	for _, o := range tenant.SortedBySeq(s.St.Organizations, func(o *tenant.Organization) int64 { return o.Seq }) {
		if slices.Contains(o.Grants, g.ID) {
			all = append(all, grantOrgView(o))
		}
	}
	return writeList(w, r, s.FieldsEverywhere, "organizations", all, false)
}

// grantOrgView is an organization as a grant's list shows it: display_name
// always, empty when it has none [O: clients-and-grants.md, "organizations[]:
// always display_name, id, name"], where GET /organizations/{id} leaves it out.
func grantOrgView(o *tenant.Organization) wire.Ordered {
	v := o.View()
	if o.DisplayName == "" {
		v = slices.Insert(v, 2, wire.Ordered{{"display_name", ""}}...)
	}
	return v
}

// clientsOfOrganization reads GET /clients' q=client_grant.organization_id:<id>
// ("clients associated with a client grant given an organization id", as
// go-auth0's TestOrganizationManager_ClientGrantsWithOrg uses it [S]; the
// recorded answer is redacted): the clients whose grants are associated
// with the organization, or nil when q is not that query.
func (s *Server) clientsOfOrganization(q string) map[string]bool {
	id, ok := strings.CutPrefix(q, "client_grant.organization_id:")
	if !ok {
		return nil
	}
	out := map[string]bool{}
	if o := s.St.Organizations[id]; o != nil {
		for _, gid := range o.Grants {
			if g := s.St.Grants[gid]; g != nil {
				out[g.ClientID] = true
			}
		}
	}
	return out
}
