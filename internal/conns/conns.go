// Package conns holds TenantClient, the provider's one object for a
// configured tenant. The provider builds it once in Configure and hands it to
// every resource, data source, list resource and action; it owns the plain
// Management API client and every behaviour that spans resources, each a
// named part of it:
//
//   - ResourceServers, Profiles, Roles: the reads of a refresh served from
//     list pages that many reads share (SharedReads), and the lookups by
//     natural key of a plan's checks (Find);
//   - Actions: one read of each action per run, for the plan's checks;
//   - Bindings: each trigger's bindings read once per run, and what the
//     plan binds to each trigger, for the plan of an action's destroy;
//   - RolePermissions: each role's permissions read once per run, the
//     writes to them ordered within the run, and which resources claim a
//     role in the configuration;
//   - Planned: what the configuration's resources plan, for the plan-time
//     checks that span resources;
//   - Scopes: the API scope writes of the run, which permission writes
//     wait for.
//
// Terraform starts the provider anew for each of validate, plan and apply,
// and configures it once in each, so everything here lasts one run and
// nothing depends on what ran before. Tests build one with New.
package conns

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TenantClient is the provider-scoped object; see the package comment.
type TenantClient struct {
	// API is the plain Management API client: requests, retries, errors.
	API *mgmt.Client

	ResourceServers *SharedReads[mgmt.ResourceServer]
	Profiles        *SharedReads[mgmt.TokenExchangeProfile]
	Roles           *SharedReads[mgmt.Role]
	Actions         *ActionReads
	Bindings        *TriggerBindings
	RolePermissions *RolePermissions
	Planned         *Planned
	Scopes          *ScopeWrites
}

// New builds the client for cfg and everything that coordinates through it.
// It sends no request.
func New(cfg mgmt.Config) (*TenantClient, error) {
	t := &TenantClient{}
	cfg.OnWrite = t.written
	api, err := mgmt.New(cfg)
	if err != nil {
		return nil, err
	}
	t.init(api)
	return t, nil
}

// Unconfigured is the TenantClient of a provider that is not configured yet
// (its domain or credentials are unknown until apply): every request it
// would send fails with an error that says so.
func Unconfigured() *TenantClient {
	t := &TenantClient{}
	t.init(nil)
	return t
}

// Configured reports whether t can send requests.
func (t *TenantClient) Configured() bool { return t != nil && t.API != nil }

func (t *TenantClient) init(api *mgmt.Client) {
	t.API = api
	t.ResourceServers = newSharedReads(func(s *mgmt.ResourceServer) string { return s.ID },
		func(ctx context.Context, cursor string) (listPage[mgmt.ResourceServer], error) {
			page, _ := strconv.Atoi(cursor)
			items, more, total, err := api.ResourceServersPage(ctx, page)
			return listPage[mgmt.ResourceServer]{items: items, next: strconv.Itoa(page + 1), done: !more, total: total}, err
		}, api.GetResourceServer).withNatural(func(s *mgmt.ResourceServer) string { return s.Identifier }, api.FindResourceServer)
	t.Roles = newSharedReads(func(r *mgmt.Role) string { return r.ID },
		func(ctx context.Context, cursor string) (listPage[mgmt.Role], error) {
			page, _ := strconv.Atoi(cursor)
			items, more, total, err := api.RolesPage(ctx, page)
			return listPage[mgmt.Role]{items: items, next: strconv.Itoa(page + 1), done: !more, total: total}, err
		}, api.GetRole).withNatural(func(r *mgmt.Role) string { return r.Name }, api.FindRole)
	t.Profiles = newSharedReads(func(p *mgmt.TokenExchangeProfile) string { return p.ID },
		func(ctx context.Context, cursor string) (listPage[mgmt.TokenExchangeProfile], error) {
			p, err := api.ListTokenExchangeProfiles(ctx, cursor, 100)
			if err != nil {
				return listPage[mgmt.TokenExchangeProfile]{}, err
			}
			return listPage[mgmt.TokenExchangeProfile]{items: p.Profiles, next: p.Next, done: p.Next == "", total: -1}, nil
		}, api.GetTokenExchangeProfile).withNatural(func(p *mgmt.TokenExchangeProfile) string { return p.SubjectTokenType }, nil)
	t.Actions = newActionReads(api)
	t.Bindings = newTriggerBindings(api)
	t.Scopes = newScopeWrites()
	t.Planned = newPlanned()
	t.RolePermissions = newRolePermissions(api, t.Scopes, t.Planned)
}

// written drops whatever a write to path may have made out of date, before
// the write is sent and again when it ends (the function it returns); a
// write of an API's scopes is in flight (Scopes) until then.
func (t *TenantClient) written(method, path string) (done func()) {
	t.forget(path)
	end := func() {}
	if strings.HasPrefix(path, "/resource-servers") && (method == http.MethodPost || method == http.MethodPatch) {
		end = t.Scopes.Begin()
	}
	return func() {
		t.forget(path)
		end()
	}
}

// forget drops what a write to path may have made out of date.
func (t *TenantClient) forget(path string) {
	segments := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch segments[0] {
	case "resource-servers":
		t.ResourceServers.invalidate()
		// An API deleted, or a scope removed from it, leaves roles'
		// permissions too.
		t.RolePermissions.forgetAll()
	case "token-exchange-profiles":
		t.Profiles.invalidate()
	case "actions":
		t.Actions.forget()
		t.Bindings.forget()
	case "roles":
		if len(segments) < 2 {
			t.Roles.invalidate()
			return
		}
		id, err := url.PathUnescape(segments[1])
		if err != nil {
			id = segments[1]
		}
		if len(segments) == 2 {
			// A role renamed or deleted; deleting it takes its permissions.
			t.Roles.invalidate()
		}
		t.RolePermissions.forget(id)
	}
}
