package mgmt

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Role is a named set of permissions.
type Role struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// RoleUpdate is a PATCH /roles/{id} body: only the fields set are sent
// (reference §3: the body takes name and description only).
type RoleUpdate struct {
	Name        Patch[string] `json:"name,omitzero"`
	Description Patch[string] `json:"description,omitzero"`
}

// RoleList is one page of roles.
type RoleList struct {
	Roles []Role `json:"roles"`
	Start int    `json:"start"`
	Limit int    `json:"limit"`
	Total int    `json:"total"`
}

// Permission is one (API identifier, scope) pair; it is also the POST and
// DELETE item of /roles/{id}/permissions.
type Permission struct {
	ResourceServerIdentifier string `json:"resource_server_identifier"`
	PermissionName           string `json:"permission_name"`
}

// RolePermission is a permission as GET /roles/{id}/permissions shows it.
type RolePermission struct {
	Permission
	Description        string `json:"description,omitempty"`
	ResourceServerName string `json:"resource_server_name,omitempty"`
}

type rolePermissionList struct {
	Permissions []RolePermission `json:"permissions"`
	Start       int              `json:"start"`
	Limit       int              `json:"limit"`
	Total       int              `json:"total"`
}

type permissionsBody struct {
	Permissions []Permission `json:"permissions"`
}

// PermissionsPerRequest is how many pairs one POST or DELETE carries.
const PermissionsPerRequest = 100

// MaxPermissionsPerRole is how many permissions a role may hold, all APIs
// together, and MaxScopesPerAPI how many scopes an API may define: the
// platform's published entity limits (1,000 each). The reference does not
// list them; they are the platform's documented limits, not observed here.
const (
	MaxPermissionsPerRole = 1000
	MaxScopesPerAPI       = 1000
)

func (c *Client) CreateRole(ctx context.Context, in Role) (*Role, error) {
	in.ID = ""
	var out Role
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/roles", body: in, writes: c.roleWrites()}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST /roles")
}

func (c *Client) GetRole(ctx context.Context, id string) (*Role, error) {
	var out Role
	path := "/roles/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "GET "+path)
}

// ReadRole reads a role by id for a refresh: when many roles are refreshed
// in one run, it is served from list pages shared by all readers.
func (c *Client) ReadRole(ctx context.Context, id string) (*Role, error) {
	if c == nil {
		return nil, errNotConfigured
	}
	return c.roles.get(ctx, id, func() (*Role, error) { return c.GetRole(ctx, id) })
}

// roleWrites is the coalescer a role write invalidates.
func (c *Client) roleWrites() interface{ invalidate() } {
	if c == nil {
		return nil
	}
	return c.roles
}

func (c *Client) rolePage(ctx context.Context, cursor string) (listPage[Role], error) {
	page := 0
	if cursor != "" {
		page, _ = strconv.Atoi(cursor)
	}
	var l RoleList
	if err := c.listPage(ctx, "/roles", nil, page, 100, &l); err != nil {
		return listPage[Role]{}, err
	}
	more, err := hasNext("/roles", page, 100, l.Start, l.Limit, l.Total, len(l.Roles))
	if err != nil {
		return listPage[Role]{}, err
	}
	return listPage[Role]{items: l.Roles, next: strconv.Itoa(page + 1), done: !more, total: l.Total}, nil
}

// UpdateRole PATCHes the fields set in in; the API answers the full role
// (reference §3).
func (c *Client) UpdateRole(ctx context.Context, id string, in RoleUpdate) (*Role, error) {
	var out Role
	path := "/roles/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in, writes: c.roleWrites()}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "PATCH "+path)
}

// DeleteRole deletes a role; one already gone is success.
func (c *Client) DeleteRole(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/roles/" + escape(id), body: struct{}{}, writes: c.roleWrites()}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// FindRolesByName returns the roles whose name equals name exactly. The API's
// name_filter is a loose match, so its answer is filtered again here.
func (c *Client) FindRolesByName(ctx context.Context, name string) ([]Role, error) {
	return c.findRoles(ctx, name, func(n string) bool { return n == name })
}

// FindRolesByPrefix returns the roles whose name starts with prefix.
func (c *Client) FindRolesByPrefix(ctx context.Context, prefix string) ([]Role, error) {
	return c.findRoles(ctx, prefix, func(n string) bool { return strings.HasPrefix(n, prefix) })
}

// ListRoles reads one page (0-based, perPage 1–100) of the roles whose name
// matches nameFilter as the API matches it (loosely, reference §3), or of
// every role when nameFilter is empty. It reports whether more pages follow.
func (c *Client) ListRoles(ctx context.Context, nameFilter string, page, perPage int) ([]Role, bool, error) {
	var q url.Values
	if nameFilter != "" {
		q = url.Values{"name_filter": {nameFilter}}
	}
	var l RoleList
	if err := c.listPage(ctx, "/roles", q, page, perPage, &l); err != nil {
		return nil, false, err
	}
	more, err := hasNext("/roles", page, perPage, l.Start, l.Limit, l.Total, len(l.Roles))
	return l.Roles, more, err
}

// EachRole yields the roles whose name matches nameFilter as the API
// matches it (every role when it is empty), page by page (100 a request);
// an error ends it.
func (c *Client) EachRole(ctx context.Context, nameFilter string) iter.Seq2[*Role, error] {
	return func(yield func(*Role, error) bool) {
		for page := 0; ; page++ {
			roles, more, err := c.ListRoles(ctx, nameFilter, page, 100)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range roles {
				if !yield(&roles[i], nil) {
					return
				}
			}
			if !more {
				return
			}
		}
	}
}

func (c *Client) findRoles(ctx context.Context, name string, keep func(string) bool) ([]Role, error) {
	var out []Role
	for r, err := range c.EachRole(ctx, name) {
		if err != nil {
			return nil, err
		}
		if keep(r.Name) {
			out = append(out, *r)
		}
	}
	return out, nil
}

// RolePermissions reads every page of a role's permissions.
func (c *Client) RolePermissions(ctx context.Context, roleID string) ([]RolePermission, error) {
	path := "/roles/" + escape(roleID) + "/permissions"
	var all []RolePermission
	for page := 0; ; page++ {
		var l rolePermissionList
		if err := c.listPage(ctx, path, nil, page, 100, &l); err != nil {
			return nil, err
		}
		all = append(all, l.Permissions...)
		more, err := hasNext(path, page, 100, l.Start, l.Limit, l.Total, len(l.Permissions))
		if err != nil || !more {
			return all, err
		}
	}
}

// AddRolePermissions assigns the pairs, PermissionsPerRequest per request.
func (c *Client) AddRolePermissions(ctx context.Context, roleID string, perms []Permission) error {
	return c.permissionChunks(ctx, http.MethodPost, roleID, perms)
}

// RemoveRolePermissions unassigns the pairs; pairs not assigned are ignored by
// the API, and a role already gone is success.
func (c *Client) RemoveRolePermissions(ctx context.Context, roleID string, perms []Permission) error {
	err := c.permissionChunks(ctx, http.MethodDelete, roleID, perms)
	if IsNotFound(err) {
		return nil
	}
	return err
}

func (c *Client) permissionChunks(ctx context.Context, method, roleID string, perms []Permission) error {
	path := "/roles/" + escape(roleID) + "/permissions"
	for start := 0; start < len(perms); start += PermissionsPerRequest {
		chunk := perms[start:min(start+PermissionsPerRequest, len(perms))]
		// Assigning or removing the same pairs again leaves the role as it is.
		if _, err := c.do(ctx, request{method: method, path: path, body: permissionsBody{chunk}, idempotent: true}, nil); err != nil {
			return err
		}
	}
	return nil
}
