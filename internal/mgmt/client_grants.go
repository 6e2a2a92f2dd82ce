package mgmt

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"
)

// ClientGrant gives a client access to an API (its audience) with scopes
// (reference: clients-and-grants.md, ClientGrant [S], key sets [O]).
type ClientGrant struct {
	ID                        string    `json:"id,omitempty"`
	ClientID                  string    `json:"client_id,omitempty"`
	Audience                  string    `json:"audience"`
	Scope                     *[]string `json:"scope,omitempty"`
	AllowAllScopes            *bool     `json:"allow_all_scopes,omitempty"`
	OrganizationUsage         *string   `json:"organization_usage,omitempty"`
	AllowAnyOrganization      *bool     `json:"allow_any_organization,omitempty"`
	SubjectType               *string   `json:"subject_type,omitempty"`
	AuthorizationDetailsTypes *[]string `json:"authorization_details_types,omitempty"`
	// Read-only.
	IsSystem bool `json:"is_system,omitempty"`
}

// Key is the grant's natural key: a client has one grant per API [R].
func (g *ClientGrant) Key() string { return GrantKey(g.ClientID, g.Audience) }

// GrantKey is the natural key of the grant of clientID for audience, as the
// import ID writes it (client_id::audience).
func GrantKey(clientID, audience string) string { return clientID + "::" + audience }

// ClientGrantUpdate is a PATCH /client-grants/{id} body: only the fields
// set are sent. The client, the API and the subject type cannot change
// [O: a PATCH carries scope, allow_all_scopes, authorization_details_types;
// the organization fields are assumed to be taken too].
type ClientGrantUpdate struct {
	Scope                     Patch[[]string] `json:"scope,omitzero"`
	AllowAllScopes            Patch[bool]     `json:"allow_all_scopes,omitzero"`
	OrganizationUsage         Patch[string]   `json:"organization_usage,omitzero"`
	AllowAnyOrganization      Patch[bool]     `json:"allow_any_organization,omitzero"`
	AuthorizationDetailsTypes Patch[[]string] `json:"authorization_details_types,omitzero"`
}

// ClientGrantList is one offset page of grants.
type ClientGrantList struct {
	ClientGrants []ClientGrant `json:"client_grants"`
	Start        int           `json:"start"`
	Limit        int           `json:"limit"`
	Total        int           `json:"total"`
}

func (c *Client) CreateClientGrant(ctx context.Context, in ClientGrant) (*ClientGrant, error) {
	in.ID, in.IsSystem = "", false
	var out ClientGrant
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/client-grants", body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST /client-grants")
}

func (c *Client) GetClientGrant(ctx context.Context, id string) (*ClientGrant, error) {
	var out ClientGrant
	path := "/client-grants/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "GET "+path)
}

// UpdateClientGrant PATCHes the fields set in in; the API answers the
// full grant [O].
func (c *Client) UpdateClientGrant(ctx context.Context, id string, in ClientGrantUpdate) (*ClientGrant, error) {
	var out ClientGrant
	path := "/client-grants/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "PATCH "+path)
}

// DeleteClientGrant deletes a grant; one already gone is success (204 [O]).
func (c *Client) DeleteClientGrant(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/client-grants/" + escape(id)}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// GrantFilter narrows the grant list [O query: client_id, audience].
type GrantFilter struct {
	ClientID string
	Audience string
}

func (f GrantFilter) values() url.Values {
	q := url.Values{}
	if f.ClientID != "" {
		q.Set("client_id", f.ClientID)
	}
	if f.Audience != "" {
		q.Set("audience", f.Audience)
	}
	return q
}

// ClientGrantsPage reads one page (0-based) of 100 of the grants that match
// f: more says whether another follows, total is how many match.
func (c *Client) ClientGrantsPage(ctx context.Context, page int, f GrantFilter) (grants []ClientGrant, more bool, total int, err error) {
	var l ClientGrantList
	if err := c.listPage(ctx, "/client-grants", f.values(), page, 100, &l); err != nil {
		return nil, false, 0, err
	}
	more, err = hasNext("/client-grants", page, 100, l.Start, l.Limit, l.Total, len(l.ClientGrants))
	return l.ClientGrants, more, l.Total, err
}

// EachClientGrant yields the grants that match f, page by page; an error
// ends it.
func (c *Client) EachClientGrant(ctx context.Context, f GrantFilter) iter.Seq2[*ClientGrant, error] {
	return func(yield func(*ClientGrant, error) bool) {
		for page := 0; ; page++ {
			grants, more, _, err := c.ClientGrantsPage(ctx, page, f)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range grants {
				if !yield(&grants[i], nil) {
					return
				}
			}
			if !more {
				return
			}
		}
	}
}

// FindClientGrants returns the grants of clientID for audience: one list
// request filtered by both [O query]. An answer that holds another
// client's or API's grant is not a match (the list filters are the API's,
// and a tenant that ignored one would answer every grant). Whether a user
// grant and a client grant of one pair may both exist is not known, so
// there may be two.
func (c *Client) FindClientGrants(ctx context.Context, clientID, audience string) ([]ClientGrant, error) {
	var found []ClientGrant
	for g, err := range c.EachClientGrant(ctx, GrantFilter{ClientID: clientID, Audience: audience}) {
		if err != nil {
			return nil, err
		}
		if g.ClientID == clientID && g.Audience == audience {
			found = append(found, *g)
		}
	}
	return found, nil
}

// FindClientGrant returns the grant of clientID for audience, or nil when
// the tenant holds none; an error when it holds more than one (one per
// subject type).
func (c *Client) FindClientGrant(ctx context.Context, clientID, audience string) (*ClientGrant, error) {
	found, err := c.FindClientGrants(ctx, clientID, audience)
	if err != nil {
		return nil, err
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return &found[0], nil
	}
	return nil, fmt.Errorf("%d grants of client %q for %q (%s)", len(found), clientID, audience, GrantIDs(found))
}

// GrantIDs lists the grants' ids and subject types, for a diagnostic.
func GrantIDs(grants []ClientGrant) string {
	ids := make([]string, len(grants))
	for i, g := range grants {
		subject := "client"
		if g.SubjectType != nil {
			subject = *g.SubjectType
		}
		ids[i] = g.ID + " (" + subject + ")"
	}
	return strings.Join(ids, ", ")
}

// GrantOfSubject returns the grant of grants whose subject type is
// subject (a grant without one is a client grant), else the only grant
// when there is one (the grant in the way of a create when the tenant
// keeps one grant per pair), else nil.
func GrantOfSubject(grants []ClientGrant, subject string) *ClientGrant {
	for i, g := range grants {
		if g.SubjectType == nil && subject == "client" || g.SubjectType != nil && *g.SubjectType == subject {
			return &grants[i]
		}
	}
	if len(grants) == 1 {
		return &grants[0]
	}
	return nil
}

// FindClientGrantByKey is FindClientGrant for a GrantKey.
func (c *Client) FindClientGrantByKey(ctx context.Context, key string) (*ClientGrant, error) {
	clientID, audience, ok := splitGrantKey(key)
	if !ok {
		return nil, nil
	}
	return c.FindClientGrant(ctx, clientID, audience)
}

// splitGrantKey splits a GrantKey; the client id never holds "::", the
// audience may.
func splitGrantKey(key string) (clientID, audience string, ok bool) {
	for i := 0; i+1 < len(key); i++ {
		if key[i] == ':' && key[i+1] == ':' {
			return key[:i], key[i+2:], i > 0 && i+2 < len(key)
		}
	}
	return "", "", false
}
