package tenant

import "slices"

// Grant is a client grant, in the observed key order [O]: id, client_id,
// audience, scope, organization_usage, allow_any_organization, is_system,
// subject_type, authorization_details_types. Assumption: allow_all_scopes
// (never recorded with its neighbours) follows scope, and default_for ends
// the object.
type Grant struct {
	ID                        string    `json:"id"`
	ClientID                  string    `json:"client_id,omitempty"`
	Audience                  string    `json:"audience"`
	Scope                     *[]string `json:"scope,omitempty"`
	AllowAllScopes            *bool     `json:"allow_all_scopes,omitempty"`
	OrganizationUsage         *string   `json:"organization_usage,omitempty"`
	AllowAnyOrganization      *bool     `json:"allow_any_organization,omitempty"`
	IsSystem                  bool      `json:"is_system,omitempty"`
	SubjectType               string    `json:"subject_type"`
	AuthorizationDetailsTypes *[]string `json:"authorization_details_types,omitempty"`
	DefaultFor                string    `json:"default_for,omitempty"`
	Seq                       int64     `json:"-"`
}

func (g *Grant) Clone() *Grant {
	x := *g
	if g.Scope != nil {
		s := slices.Clone(*g.Scope)
		x.Scope = &s
	}
	if g.AuthorizationDetailsTypes != nil {
		t := slices.Clone(*g.AuthorizationDetailsTypes)
		x.AuthorizationDetailsTypes = &t
	}
	return &x
}

// Scopes is what the grant gives: its scope, or every scope of the API
// when allow_all_scopes is set [S].
func (g *Grant) Scopes(rs *ResourceServer) []string {
	if g.AllowAllScopes != nil && *g.AllowAllScopes {
		var out []string
		if rs != nil && rs.Scopes != nil {
			for _, sc := range *rs.Scopes {
				out = append(out, sc.Value)
			}
		}
		return out
	}
	if g.Scope == nil {
		return nil
	}
	return *g.Scope
}

// GrantFor returns the grant of client for audience (and subject type
// client), or nil.
func (s *Tenant) GrantFor(clientID, audience string) *Grant {
	for _, g := range s.St.Grants {
		if g.ClientID == clientID && g.Audience == audience && g.SubjectType == "client" {
			return g
		}
	}
	return nil
}

// UserGrantExists reports whether a client grant of subject type user
// gives the client the API (an API whose user policy is
// require_client_grant, management-api.md §4).
func (s *Tenant) UserGrantExists(clientID, audience string) bool {
	for _, g := range s.St.Grants {
		if g.ClientID == clientID && g.Audience == audience && g.SubjectType == "user" {
			return true
		}
	}
	return false
}
