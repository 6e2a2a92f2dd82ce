package role

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"weak"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// roleClaims notices one configuration that manages a role's permissions
// with both tenant_role_permissions (authoritative) and
// tenant_role_permission (one pair). The authoritative resource removes the
// pair on its next apply and tenant_role_permission assigns it again on the
// one after: the plan never settles.
//
// A resource's ModifyPlan sees only its own instance. But every instance
// planned through one configured provider runs in one provider process with
// the same *mgmt.Client (the provider builds one client per Configure), so
// each type records here, keyed by that client, the role ids it is planned
// or created for; the type that comes second warns.
//
// What it cannot see:
//   - other provider configurations: two aliases of the provider pointing at
//     one tenant, or another configuration (state, workspace) managing the
//     same role;
//   - instances Terraform does not plan in this run (-target);
//   - a role id unknown at plan time (a role created in the same apply) is
//     skipped then and recorded by Create and Update at apply time, where the
//     warning comes if the other type is planned or created in that apply
//     too. Terraform does not plan an unchanged instance again during apply,
//     so when the other type's instance is unchanged the warning waits for
//     the next plan, which sees both role ids.
//
// Each role warns once per configured client: terraform configures the
// provider again for each run (plan, then apply), so each warns once. The
// entries of a client go when the client is garbage collected.
type roleClaims struct {
	mu      sync.Mutex
	clients map[weak.Pointer[mgmt.Client]]map[string]*roleClaim
}

type roleClaim struct {
	types  map[string]bool
	warned bool
}

// claims is the registry both types share.
var claims = newRoleClaims()

func newRoleClaims() *roleClaims {
	return &roleClaims{clients: map[weak.Pointer[mgmt.Client]]map[string]*roleClaim{}}
}

// claim records that typeName manages roleID through client. The first time
// a second type claims the role it returns the other types, sorted (the
// caller warns); otherwise nil. A nil client (the provider is not
// configured) or an empty role id records nothing.
func (c *roleClaims) claim(client *mgmt.Client, roleID, typeName string) []string {
	if client == nil || roleID == "" {
		return nil
	}
	key := weak.Make(client)
	c.mu.Lock()
	defer c.mu.Unlock()
	roles, ok := c.clients[key]
	if !ok {
		roles = map[string]*roleClaim{}
		c.clients[key] = roles
		runtime.AddCleanup(client, c.forget, key)
	}
	rc, ok := roles[roleID]
	if !ok {
		rc = &roleClaim{types: map[string]bool{}}
		roles[roleID] = rc
	}
	rc.types[typeName] = true
	if rc.warned || len(rc.types) < 2 {
		return nil
	}
	rc.warned = true
	var others []string
	for t := range rc.types {
		if t != typeName {
			others = append(others, t)
		}
	}
	sort.Strings(others)
	return others
}

func (c *roleClaims) forget(key weak.Pointer[mgmt.Client]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.clients, key)
}

// len is how many clients have entries.
func (c *roleClaims) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.clients)
}

// claimRole records that typeName manages roleID and, the first time the
// other type manages it too in this configuration, adds the warning.
func claimRole(client *mgmt.Client, roleID, typeName string, diags *diag.Diagnostics) {
	if len(claims.claim(client, roleID, typeName)) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("role_id"), "Role permissions managed by two resource types", mixedUseDetail(roleID))
}

func mixedUseDetail(roleID string) string {
	return fmt.Sprintf("The permissions of role %[1]q are managed by both %[2]s and %[3]s in this configuration. %[2]s is "+
		"authoritative: its next apply removes every pair it does not list, including the pairs of %[3]s, which the apply "+
		"after assigns again, so the plan never settles.\n\n"+
		"Manage this role's permissions with one of them: list every pair in %[2]s and remove the %[3]s resources of the "+
		"role, or replace %[2]s with one %[3]s per pair.", roleID, PermissionsExclusiveTypeName, PermissionTypeName)
}

// roleReads lets reads of one role's permissions that run at the same time
// share one answer: a refresh plans many tenant_role_permission instances
// of one role in parallel, and each would otherwise page through the whole
// list. Only reads in flight together share; a write through this package
// forgets the read in flight, so a read that starts after a write never gets
// an answer from before it.
type roleReads struct {
	mu    sync.Mutex
	calls map[readKey]*readCall
}

type readKey struct {
	client *mgmt.Client
	roleID string
}

type readCall struct {
	done  chan struct{}
	perms []mgmt.RolePermission
	err   error
}

var reads = &roleReads{calls: map[readKey]*readCall{}}

// get returns the role's permissions, joining a read of the same role
// through the same client already under way.
func (s *roleReads) get(ctx context.Context, client *mgmt.Client, roleID string) ([]mgmt.RolePermission, error) {
	k := readKey{client, roleID}
	s.mu.Lock()
	if c, ok := s.calls[k]; ok {
		s.mu.Unlock()
		select {
		case <-c.done:
			return c.perms, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c := &readCall{done: make(chan struct{})}
	s.calls[k] = c
	s.mu.Unlock()
	c.perms, c.err = client.RolePermissions(ctx, roleID)
	s.mu.Lock()
	if s.calls[k] == c {
		delete(s.calls, k)
	}
	s.mu.Unlock()
	close(c.done)
	return c.perms, c.err
}

// forget makes the next read of the role start afresh.
func (s *roleReads) forget(client *mgmt.Client, roleID string) {
	s.mu.Lock()
	delete(s.calls, readKey{client, roleID})
	s.mu.Unlock()
}
