package mgmt

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// ResourceServer is an API. Optional fields are pointers: nil is "not sent"
// on writes and "absent" on reads; the API omits fields never set.
type ResourceServer struct {
	ID                                        string                 `json:"id,omitempty"`
	Name                                      *string                `json:"name,omitempty"`
	Identifier                                string                 `json:"identifier,omitempty"`
	Scopes                                    *[]ResourceServerScope `json:"scopes,omitempty"`
	SigningAlg                                *string                `json:"signing_alg,omitempty"`
	SigningSecret                             *string                `json:"signing_secret,omitempty"`
	AllowOfflineAccess                        *bool                  `json:"allow_offline_access,omitempty"`
	TokenLifetime                             *int64                 `json:"token_lifetime,omitempty"`
	TokenLifetimeForWeb                       *int64                 `json:"token_lifetime_for_web,omitempty"`
	SkipConsentForVerifiableFirstPartyClients *bool                  `json:"skip_consent_for_verifiable_first_party_clients,omitempty"`
	EnforcePolicies                           *bool                  `json:"enforce_policies,omitempty"`
	TokenDialect                              *string                `json:"token_dialect,omitempty"`
	// Read-only.
	ClientID string `json:"client_id,omitempty"`
	IsSystem bool   `json:"is_system,omitempty"`
}

// ResourceServerScope is one permission an API defines.
type ResourceServerScope struct {
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
}

// ResourceServerList is one page of the offset-paginated list.
type ResourceServerList struct {
	ResourceServers []ResourceServer `json:"resource_servers"`
	Start           int              `json:"start"`
	Limit           int              `json:"limit"`
	Total           int              `json:"total"`
}

func (c *Client) CreateResourceServer(ctx context.Context, in ResourceServer) (*ResourceServer, error) {
	in.ID, in.ClientID, in.IsSystem = "", "", false
	var out ResourceServer
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/resource-servers", body: in, writes: c.serverWrites()}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST /resource-servers")
}

// ReadResourceServer reads an API by id for a refresh: when many APIs are
// refreshed in one run, it is served from list pages shared by all readers.
func (c *Client) ReadResourceServer(ctx context.Context, id string) (*ResourceServer, error) {
	if c == nil {
		return nil, errNotConfigured
	}
	return c.servers.get(ctx, id, func() (*ResourceServer, error) { return c.GetResourceServer(ctx, id) })
}

// serverWrites is the coalescer a resource-server write invalidates (nil on
// a nil client, whose do() refuses the request).
func (c *Client) serverWrites() interface{ invalidate() } {
	if c == nil {
		return nil
	}
	return c.servers
}

func (c *Client) resourceServerPage(ctx context.Context, cursor string) (listPage[ResourceServer], error) {
	page := 0
	if cursor != "" {
		page, _ = strconv.Atoi(cursor)
	}
	l, err := c.ListResourceServers(ctx, page, 100)
	if err != nil {
		return listPage[ResourceServer]{}, err
	}
	more, err := hasNext("/resource-servers", page, 100, l.Start, l.Limit, l.Total, len(l.ResourceServers))
	if err != nil {
		return listPage[ResourceServer]{}, err
	}
	return listPage[ResourceServer]{items: l.ResourceServers, next: strconv.Itoa(page + 1), done: !more, total: l.Total}, nil
}

// GetResourceServer reads an API by id or by identifier (audience).
func (c *Client) GetResourceServer(ctx context.Context, idOrIdentifier string) (*ResourceServer, error) {
	var out ResourceServer
	path := "/resource-servers/" + escape(idOrIdentifier)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "GET "+path)
}

// UpdateResourceServer PATCHes the fields set in in; the identifier cannot
// change and is never sent.
func (c *Client) UpdateResourceServer(ctx context.Context, id string, in ResourceServer) (*ResourceServer, error) {
	in.ID, in.Identifier, in.ClientID, in.IsSystem = "", "", "", false
	var out ResourceServer
	path := "/resource-servers/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in, writes: c.serverWrites()}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "PATCH "+path)
}

// DeleteResourceServer deletes an API; one already gone is success.
func (c *Client) DeleteResourceServer(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/resource-servers/" + escape(id), writes: c.serverWrites()}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// ListResourceServers reads one page (page is 0-based, perPage 1–100).
func (c *Client) ListResourceServers(ctx context.Context, page, perPage int) (*ResourceServerList, error) {
	var out ResourceServerList
	err := c.listPage(ctx, "/resource-servers", nil, page, perPage, &out)
	return &out, err
}

// AllResourceServers walks every page.
func (c *Client) AllResourceServers(ctx context.Context) ([]ResourceServer, error) {
	var all []ResourceServer
	for page := 0; ; page++ {
		l, err := c.ListResourceServers(ctx, page, 100)
		if err != nil {
			return nil, err
		}
		all = append(all, l.ResourceServers...)
		more, err := hasNext("/resource-servers", page, 100, l.Start, l.Limit, l.Total, len(l.ResourceServers))
		if err != nil || !more {
			return all, err
		}
	}
}

// listPage reads one offset page with include_totals.
func (c *Client) listPage(ctx context.Context, path string, q url.Values, page, perPage int, out any) error {
	if q == nil {
		q = url.Values{}
	}
	q.Set("include_totals", "true")
	q.Set("page", strconv.Itoa(page))
	q.Set("per_page", strconv.Itoa(perPage))
	_, err := c.do(ctx, request{method: http.MethodGet, path: path, query: q}, out)
	return err
}

// hasNext decides whether an offset envelope has more pages. An envelope that
// does not match the page asked for is an error, never a reason to loop.
func hasNext(path string, page, perPage, start, limit, total, n int) (bool, error) {
	if start != page*perPage || limit <= 0 || total < 0 || n > limit {
		return false, fmt.Errorf("malformed response from GET %s: envelope start=%d limit=%d total=%d for page %d of %d", path, start, limit, total, page, perPage)
	}
	if total > start+limit && n == 0 {
		return false, fmt.Errorf("malformed response from GET %s: empty page %d while total=%d", path, page, total)
	}
	return total > start+limit, nil
}
