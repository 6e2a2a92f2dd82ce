package mgmt

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// Role is a named set of permissions.
type Role struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
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

func (c *Client) CreateRole(ctx context.Context, in Role) (*Role, error) {
	in.ID = ""
	var out Role
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/roles", body: in}, &out); err != nil {
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

// DeleteRole deletes a role; one already gone is success.
func (c *Client) DeleteRole(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/roles/" + escape(id), body: struct{}{}}, nil)
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

func (c *Client) findRoles(ctx context.Context, name string, keep func(string) bool) ([]Role, error) {
	var out []Role
	for page := 0; ; page++ {
		var l RoleList
		if err := c.listPage(ctx, "/roles", url.Values{"name_filter": {name}}, page, 100, &l); err != nil {
			return nil, err
		}
		for _, r := range l.Roles {
			if keep(r.Name) {
				out = append(out, r)
			}
		}
		more, err := hasNext("/roles", page, 100, l.Start, l.Limit, l.Total, len(l.Roles))
		if err != nil || !more {
			return out, err
		}
	}
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
