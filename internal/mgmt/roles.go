package mgmt

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
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

// PermissionsBody is the body of POST and DELETE /roles/{id}/permissions:
// the pairs assigned or removed.
type PermissionsBody struct {
	Permissions []Permission `json:"permissions"`
}

// PermissionsPerRequest is how many pairs one POST or DELETE carries.
const PermissionsPerRequest = 100

// MaxPermissionsPerRole is how many permissions a role may hold, all APIs
// together, and MaxScopesPerAPI how many scopes an API may define: 1,000
// each, the platform's published entity limit policy ("Permissions per
// Role", "Scopes per API", RBAC section), which the reference does not
// hold. Reported by the vendor's documentation, not observed here
// ([R] in the reference's terms); the emulator does not enforce them.
const (
	MaxPermissionsPerRole = 1000
	MaxScopesPerAPI       = 1000
)

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

// UpdateRole PATCHes the fields set in in; the API answers the full role
// (reference §3).
func (c *Client) UpdateRole(ctx context.Context, id string, in RoleUpdate) (*Role, error) {
	var out Role
	path := "/roles/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "PATCH "+path)
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

// FindRole returns the role named name exactly, or nil when there is none.
// Names are unique in a tenant; two roles of one name are an error that
// names them.
func (c *Client) FindRole(ctx context.Context, name string) (*Role, error) {
	roles, err := c.FindRolesByName(ctx, name)
	switch {
	case err != nil || len(roles) == 0:
		return nil, err
	case len(roles) > 1:
		return nil, fmt.Errorf("%d roles are named %q (%s)", len(roles), name, RoleIDs(roles))
	}
	return &roles[0], nil
}

// RoleIDs lists the ids of roles, comma-separated, for messages.
func RoleIDs(roles []Role) string {
	ids := make([]string, len(roles))
	for i, r := range roles {
		ids[i] = r.ID
	}
	return strings.Join(ids, ", ")
}

// NamesByAPI groups the permission names of pairs by API identifier.
func NamesByAPI(pairs []Permission) map[string][]string {
	byAPI := map[string][]string{}
	for _, p := range pairs {
		byAPI[p.ResourceServerIdentifier] = append(byAPI[p.ResourceServerIdentifier], p.PermissionName)
	}
	return byAPI
}

// Pairs returns the (API, permission) pairs of perms.
func Pairs(perms []RolePermission) []Permission {
	out := make([]Permission, len(perms))
	for i, p := range perms {
		out[i] = p.Permission
	}
	return out
}

// FindRolesByPrefix returns the roles whose name starts with prefix. It
// reads every role: whether name_filter matches a part of the name, its
// start or the whole name is not documented (reference §3), and only the
// last would miss a prefix.
func (c *Client) FindRolesByPrefix(ctx context.Context, prefix string) ([]Role, error) {
	return c.findRoles(ctx, "", func(n string) bool { return strings.HasPrefix(n, prefix) })
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

// RolesPage reads one page (0-based) of 100 of the tenant's roles: more
// says whether another follows, total is how many the tenant holds.
func (c *Client) RolesPage(ctx context.Context, page int) (roles []Role, more bool, total int, err error) {
	var l RoleList
	if err := c.listPage(ctx, "/roles", nil, page, 100, &l); err != nil {
		return nil, false, 0, err
	}
	more, err = hasNext("/roles", page, 100, l.Start, l.Limit, l.Total, len(l.Roles))
	return l.Roles, more, l.Total, err
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
//
// Assumption (reference §3, §8 leave it open): a pair the role already
// holds may be accepted again or refused with 409 (which a POST repeated
// after a lost answer would meet too). After a 409 the role's permissions
// are read once, and the pairs of the request it does not hold are sent
// again; a 409 to that is the tenant's error.
func (c *Client) AddRolePermissions(ctx context.Context, roleID string, perms []Permission) error {
	for start := 0; start < len(perms); start += PermissionsPerRequest {
		chunk := perms[start:min(start+PermissionsPerRequest, len(perms))]
		err := c.permissionChunks(ctx, http.MethodPost, roleID, chunk)
		if !IsConflict(err) {
			if err != nil {
				return err
			}
			continue
		}
		held, rerr := c.RolePermissions(ctx, roleID)
		if rerr != nil {
			return err
		}
		holds := make(map[Permission]bool, len(held))
		for _, p := range held {
			holds[p.Permission] = true
		}
		var missing []Permission
		for _, p := range chunk {
			if !holds[p] {
				missing = append(missing, p)
			}
		}
		if len(missing) > 0 {
			if err := c.permissionChunks(ctx, http.MethodPost, roleID, missing); err != nil {
				return err
			}
		}
	}
	return nil
}

// RemoveRolePermissions unassigns the pairs; pairs not assigned are ignored
// by the API (reference §0.5). A 404 can name the role or something else in
// the body (an API that does not exist: reference §0.4, reported for
// additions), so it is looked into: a role that is gone holds nothing, and
// pairs the role no longer holds (their API deleted, say) are removed all
// the same. Only when the role still holds some of them is it an error,
// which names them.
func (c *Client) RemoveRolePermissions(ctx context.Context, roleID string, perms []Permission) error {
	err := c.permissionChunks(ctx, http.MethodDelete, roleID, perms)
	if !IsNotFound(err) {
		return err
	}
	if _, gerr := c.GetRole(ctx, roleID); IsNotFound(gerr) {
		return nil
	}
	held, gerr := c.RolePermissions(ctx, roleID)
	if gerr != nil {
		return err
	}
	holds := make(map[Permission]bool, len(held))
	for _, p := range held {
		holds[p.Permission] = true
	}
	var still []Permission
	for _, p := range perms {
		if holds[p] {
			still = append(still, p)
		}
	}
	if len(still) == 0 {
		return nil
	}
	return &StillAssignedError{Err: err, Held: still}
}

// StillAssignedError is a removal the API refused with a 404 about
// something other than the role, after which the role still holds Held.
type StillAssignedError struct {
	Err  error
	Held []Permission
}

func (e *StillAssignedError) Error() string {
	return fmt.Sprintf("%v; the role still holds %d of the pairs", e.Err, len(e.Held))
}

func (e *StillAssignedError) Unwrap() error { return e.Err }

// DiffPermissions returns the pairs in want but not in have, and in have
// but not in want, each sorted.
func DiffPermissions(want, have []Permission) (added, removed []Permission) {
	in := func(list []Permission) map[Permission]bool {
		m := make(map[Permission]bool, len(list))
		for _, p := range list {
			m[p] = true
		}
		return m
	}
	w, h := in(want), in(have)
	for p := range w {
		if !h[p] {
			added = append(added, p)
		}
	}
	for p := range h {
		if !w[p] {
			removed = append(removed, p)
		}
	}
	SortPermissions(added)
	SortPermissions(removed)
	return added, removed
}

// SortPermissions orders pairs by API identifier, then name.
func SortPermissions(p []Permission) {
	slices.SortFunc(p, func(a, b Permission) int {
		if c := strings.Compare(a.ResourceServerIdentifier, b.ResourceServerIdentifier); c != 0 {
			return c
		}
		return strings.Compare(a.PermissionName, b.PermissionName)
	})
}

func (c *Client) permissionChunks(ctx context.Context, method, roleID string, perms []Permission) error {
	path := "/roles/" + escape(roleID) + "/permissions"
	for start := 0; start < len(perms); start += PermissionsPerRequest {
		chunk := perms[start:min(start+PermissionsPerRequest, len(perms))]
		// Assigning or removing the same pairs again leaves the role as it is.
		if _, err := c.do(ctx, request{method: method, path: path, body: PermissionsBody{chunk}, idempotent: true}, nil); err != nil {
			return err
		}
	}
	return nil
}
