package conns

import (
	"context"
	"net/url"
	"slices"
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

	// Clients and Grants are the shared reads of clients and client
	// grants; PlannedGrants the grants the configuration plans.
	Clients       *SharedReads[mgmt.AppClient]
	Grants        *SharedReads[mgmt.ClientGrant]
	PlannedGrants *PlannedGrants
	// GrantsAtStart finds grants by client and API for the plan's check
	// that a new grant's pair is free. Unlike Grants, this run's writes do
	// not change it: the grants this run creates are the planned ones,
	// which PlannedGrants tells apart, so the tenant's grants as the run
	// found them are what the check needs.
	GrantsAtStart *SharedReads[mgmt.ClientGrant]
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
		}, api.GetRole).withNatural(func(r *mgmt.Role) string { return r.Name }, api.FindRole).withUnchanged("permissions", "users")
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
	t.initClients(api)
}

// A tracker keeps what the run knows up to date around one write: it is
// called before the write is sent, and the function it returns once the
// write has ended, with its answer and error.
type tracker func(w write) (end func(w write))

// route names the trackers of the writes under one path prefix.
type route struct {
	prefix   []string
	trackers []tracker
}

// routes are the writes that change what the run knows, each type's and
// the parts' that rest on it (a new family adds its line).
func (t *TenantClient) routes() []route {
	return []route{
		{[]string{"resource-servers"}, []tracker{track(t.ResourceServers), t.Scopes.track, t.RolePermissions.trackAPI(t.ResourceServers), t.grantsOfAPI}},
		{[]string{"token-exchange-profiles"}, []tracker{track(t.Profiles)}},
		{[]string{"roles"}, []tracker{track(t.Roles), t.RolePermissions.trackRole}},
		{[]string{"actions", "actions"}, []tracker{t.Actions.track, t.Bindings.track}},
		{[]string{"actions", "triggers"}, []tracker{t.Bindings.trackTrigger}},
		{[]string{"clients"}, []tracker{track(t.Clients), t.grantsOfClient}},
		{[]string{"client-grants"}, []tracker{track(t.Grants)}},
	}
}

// track is the tracker of a type's shared reads.
func track[T any](c *SharedReads[T]) tracker {
	return func(write) func(write) {
		c.begin()
		return c.end
	}
}

// written is the API client's OnWrite: it runs the trackers of the route
// the write's path falls under, before the write and when it has ended.
func (t *TenantClient) written(method, path string, body any) (done func(answer any, err error)) {
	segments := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, s := range segments {
		if u, err := url.PathUnescape(s); err == nil {
			segments[i] = u
		}
	}
	for _, r := range t.routes() {
		if len(segments) < len(r.prefix) || !slices.Equal(segments[:len(r.prefix)], r.prefix) {
			continue
		}
		w := write{method: method, rest: segments[len(r.prefix):], body: body}
		ends := make([]func(write), len(r.trackers))
		for i, tr := range r.trackers {
			ends[i] = tr(w)
		}
		return func(answer any, err error) {
			w.answer, w.err = answer, err
			for _, end := range ends {
				end(w)
			}
		}
	}
	return func(any, error) {}
}
