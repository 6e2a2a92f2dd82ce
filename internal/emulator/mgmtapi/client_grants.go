package mgmtapi

import (
	"net/http"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

var (
	grantSubjectTypes = []string{"client", "user"}
	grantOrgUsages    = []string{"deny", "allow", "require"}
)

// applyGrant validates the writable fields of b into g: scope (an array of
// unique strings), allow_all_scopes (then scope is not accepted [S]),
// authorization_details_types, organization_usage and allow_any_organization.
// Assumptions (the reference records only scope, allow_all_scopes and
// authorization_details_types in a PATCH): PATCH takes the two
// organization fields too, and a null clears organization_usage.
func applyGrant(g *tenant.Grant, b wire.Body) *wire.Error {
	top := b.At("")
	if b.Has("scope") {
		if b.IsNull("scope") {
			return top.TypeErr("scope", "array")
		}
		sc, e := stringList(top, "scope", nil)
		if e != nil {
			return e
		}
		for _, v := range sc {
			if v == "" || len(v) > 280 {
				return wire.PayloadErr("String length out of range [1, 280]", "scope")
			}
		}
		g.Scope = &sc
	}
	if b.Has("allow_all_scopes") {
		v, e := b.Bool("allow_all_scopes")
		if e != nil {
			return e
		}
		g.AllowAllScopes = v
		if v != nil && !*v {
			g.AllowAllScopes = nil
		}
	}
	if g.AllowAllScopes != nil {
		if b.Has("scope") {
			return wire.PayloadErr("scope is not accepted with allow_all_scopes", "scope")
		}
		g.Scope = nil
	} else if g.Scope == nil {
		return wire.PayloadErr("Missing required property: scope", "")
	}
	if b.Has("authorization_details_types") {
		if b.IsNull("authorization_details_types") {
			g.AuthorizationDetailsTypes = nil
		} else {
			t, e := stringList(top, "authorization_details_types", nil)
			if e != nil {
				return e
			}
			g.AuthorizationDetailsTypes = &t
		}
	}
	if b.Has("organization_usage") {
		v, e := b.Enum("organization_usage", grantOrgUsages...)
		if e != nil {
			return e
		}
		g.OrganizationUsage = v
	}
	if b.Has("allow_any_organization") {
		v, e := b.Bool("allow_any_organization")
		if e != nil {
			return e
		}
		g.AllowAnyOrganization = v
	}
	return nil
}

// createGrant answers 201 with the grant [O]. The client and the API must
// exist, and a client has at most one grant per API (409 [R]); per API and
// subject type with --assume grant_subject_type=separate.
// Assumptions (not recorded): the 404 texts for an unknown client or
// audience, and the 409's text.
func (s *Server) createGrant(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("client_id", "audience", "scope", "allow_all_scopes", "allow_any_organization", "organization_usage",
		"subject_type", "authorization_details_types", "default_for"); e != nil {
		return e
	}
	aud, e := b.Str("audience", true, 1, 600)
	if e != nil {
		return e
	}
	g := &tenant.Grant{Audience: aud, SubjectType: "client"}
	if b.Has("default_for") {
		v, e := b.At("").EnumReq("default_for", "third_party_clients")
		if e != nil {
			return e
		}
		if b.Has("client_id") {
			return wire.PayloadErr("client_id is not accepted with default_for", "client_id")
		}
		g.DefaultFor = v
	} else if g.ClientID, e = b.Str("client_id", true, 1, 64); e != nil {
		return e
	}
	if b.Has("subject_type") {
		if g.SubjectType, e = b.At("").EnumReq("subject_type", grantSubjectTypes...); e != nil {
			return e
		}
	}
	if e := applyGrant(g, b); e != nil {
		return e
	}
	if g.ClientID != "" {
		c, ok := s.St.Clients[g.ClientID]
		if !ok {
			return wire.NewErr(404, "The client does not exist", "inexistent_client")
		}
		if c.Str("app_type") == "express_configuration" {
			return wire.NewErr(400, "Client of type express_configuration cannot be used", "validation_error") // [O]
		}
	}
	if rs := s.FindResourceServer(aud); rs == nil || rs.Identifier != aud {
		return wire.NewErr(404, "No resource server found for audience "+aud, "inexistent_resource_server")
	}
	for _, other := range s.St.Grants {
		if other.ClientID == g.ClientID && other.Audience == aud && other.DefaultFor == g.DefaultFor &&
			(s.Assume.GrantSubjectType == "shared" || other.SubjectType == g.SubjectType) {
			return wire.NewErr(409, "A client grant for this client and audience already exists.", "")
		}
	}
	if e := s.capReached(len(s.St.Grants)); e != nil {
		return e
	}
	g.ID, g.Seq = "cgr_"+wire.RandomString(16), s.St.Next()
	s.St.Grants[g.ID] = g
	wire.WriteJSON(w, 201, g)
	return nil
}

// listGrants is offset-paginated with include_totals (envelope total,
// start, limit, client_grants [O]), or checkpoint-paginated with take and
// from; it filters by audience and client_id [O query], and by
// allow_any_organization and subject_type (assumption).
func (s *Server) listGrants(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	q := r.URL.Query()
	var match []*tenant.Grant
	for _, g := range tenant.SortedBySeq(s.St.Grants, func(g *tenant.Grant) int64 { return g.Seq }) {
		if v := q.Get("audience"); v != "" && g.Audience != v {
			continue
		}
		if v := q.Get("client_id"); v != "" && g.ClientID != v {
			continue
		}
		if v := q.Get("subject_type"); v != "" && g.SubjectType != v {
			continue
		}
		if v := q.Get("allow_any_organization"); v != "" && (v == "true") != (g.AllowAnyOrganization != nil && *g.AllowAnyOrganization) {
			continue
		}
		match = append(match, g)
	}
	if q.Has("take") || q.Has("from") {
		take, offset, e := wire.Checkpoint(r)
		if e != nil {
			return e
		}
		start, end := min(offset, len(match)), min(offset+take, len(match))
		reply := wire.Ordered{{"client_grants", append([]*tenant.Grant{}, match[start:end]...)}}
		if end < len(match) {
			reply = append(reply, wire.Ordered{{"next", wire.Cursor(end)}}...)
		}
		wire.WriteJSON(w, 200, reply)
		return nil
	}
	page, perPage, totals, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	start, end := wire.Window(len(match), page, perPage)
	items := append([]*tenant.Grant{}, match[start:end]...)
	if !totals {
		wire.WriteJSON(w, 200, items)
		return nil
	}
	wire.WriteJSON(w, 200, wire.Ordered{{"total", len(match)}, {"start", page * perPage}, {"limit", perPage}, {"client_grants", items}})
	return nil
}

func (s *Server) lookupGrant(r *http.Request) (*tenant.Grant, *wire.Error) {
	g, ok := s.St.Grants[wire.PathID(r)]
	if !ok {
		return nil, wire.NewErr(404, "The grant does not exist.", "inexistent_client_grant") // [O]
	}
	return g, nil
}

func (s *Server) getGrant(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	g, e := s.lookupGrant(r)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, g)
	return nil
}

// updateGrant answers 200 with the grant [O]; client_id, audience and
// subject_type cannot change. A system grant cannot be changed [S].
func (s *Server) updateGrant(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	g, e := s.lookupGrant(r)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("scope", "allow_all_scopes", "authorization_details_types", "organization_usage", "allow_any_organization"); e != nil {
		return e
	}
	if g.IsSystem {
		return wire.NewErr(403, "A system client grant cannot be modified.", "operation_not_supported")
	}
	next := g.Clone()
	if e := applyGrant(next, b); e != nil {
		return e
	}
	s.St.Grants[g.ID] = next
	wire.WriteJSON(w, 200, next)
	return nil
}

// deleteGrant answers 204, also for a grant already gone [O].
func (s *Server) deleteGrant(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	if g, ok := s.St.Grants[wire.PathID(r)]; ok {
		if g.IsSystem {
			return wire.NewErr(403, "A system client grant cannot be deleted.", "operation_not_supported")
		}
		delete(s.St.Grants, g.ID)
		s.ForgetGrant(g.ID)
	}
	wire.NoContent(w)
	return nil
}
