// Package tenant holds the emulated tenant's objects and their rules: the
// store and how each object shows on the API, builds and deploys of
// actions, the tenant's system APIs and starting objects, the state file,
// and the settings (Assumptions) that answer what the reference leaves
// open. The Management API routes and the token endpoint share one Tenant.
package tenant

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Tenant is the emulated tenant: its objects under one lock, and what the
// Management API routes and the token endpoint both need to know of it to
// answer as the tenant does.
type Tenant struct {
	sync.Mutex
	// St is the tenant's objects; under the lock.
	St *Store
	// Cap is the entity cap per type (0: none); under the lock.
	Cap int
	// FailingPackages makes the builds started while it is set fail when a
	// dependency is one of these (Faults.FailingPackages); under the lock.
	FailingPackages []string
	// Seeded holds the ids of the objects Options.Demo seeded.
	Seeded DemoIDs
	// bindingHistory is each trigger's lists of bound action ids, oldest
	// first (BindingHistory); under the lock.
	bindingHistory map[string][][]string

	// What follows is fixed once the emulator has started.

	// Host is the emulator's host:port, as token issuers and audiences name it.
	Host string
	// Name is the tenant's name (Options.TenantName).
	Name   string
	Assume Assumptions
	// BuildDelay is how long an action's build takes.
	BuildDelay       time.Duration
	FieldsEverywhere bool
	// NoClientConnections: the tenant flag enable_client_connections is
	// off (EnableConnectionsFor).
	NoClientConnections bool
	// SigningCert is the PEM certificate of the key that signs the
	// tenant's tokens, which every client shows in signing_keys [O].
	SigningCert string
	// Installer installs actions' dependencies when a version is built.
	Installer *actionruntime.Installer
	// Log receives the emulator's log lines (nil: no log).
	Log func(format string, args ...any)
}

// Logf writes a line to the emulator's log.
func (s *Tenant) Logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(format, args...)
	}
}

// DemoIDs are the objects --demo seeds.
type DemoIDs struct {
	ActionID        string `json:"demo_action_id,omitempty"`
	RoleID          string `json:"demo_role_id,omitempty"`
	PhoneProviderID string `json:"demo_phone_provider_id,omitempty"`
}

// Audience is the identifier of the system Management API.
func (s *Tenant) Audience() string { return "https://" + s.Host + "/api/v2/" }

// State is every object, as the API shows it.
type State struct {
	TokenExchangeProfiles []json.RawMessage `json:"token_exchange_profiles"`
	ResourceServers       []json.RawMessage `json:"resource_servers"`
	Roles                 []json.RawMessage `json:"roles"`
	Actions               []json.RawMessage `json:"actions"`
	PhoneProviders        []json.RawMessage `json:"phone_providers"`
	Users                 []json.RawMessage `json:"users"`
	// TriggerBindings holds each trigger that has bindings: its bindings in
	// execution order.
	TriggerBindings map[string][]json.RawMessage `json:"trigger_bindings"`
	// Clients show their secrets in State, not at GET /__emulator/state.
	Clients      []json.RawMessage `json:"clients"`
	ClientGrants []json.RawMessage `json:"client_grants"`
	Connections  []json.RawMessage `json:"connections"`
	// Organizations show their members and enabled connections.
	Organizations []json.RawMessage `json:"organizations"`
}

// Snapshot is a snapshot of the store, with or without the secrets.
func (s *Tenant) Snapshot(secrets bool) State {
	s.Lock()
	defer s.Unlock()
	// An empty collection is [], never null.
	out := State{
		TokenExchangeProfiles: []json.RawMessage{}, ResourceServers: []json.RawMessage{}, Roles: []json.RawMessage{},
		Actions: []json.RawMessage{}, PhoneProviders: []json.RawMessage{}, Users: []json.RawMessage{},
		TriggerBindings: map[string][]json.RawMessage{}, Clients: []json.RawMessage{}, ClientGrants: []json.RawMessage{},
		Connections: []json.RawMessage{}, Organizations: []json.RawMessage{},
	}
	for _, p := range SortedBySeq(s.St.Profiles, func(p *Profile) int64 { return p.Seq }) {
		out.TokenExchangeProfiles = append(out.TokenExchangeProfiles, wire.MustJSON(p))
	}
	for _, rs := range SortedBySeq(s.St.ResourceServers, func(r *ResourceServer) int64 { return r.Seq }) {
		if !secrets && rs.SigningSecret != nil {
			c := *rs
			c.SigningSecret = nil
			rs = &c
		}
		out.ResourceServers = append(out.ResourceServers, wire.MustJSON(rs))
	}
	for _, ro := range SortedBySeq(s.St.Roles, func(r *Role) int64 { return r.Seq }) {
		out.Roles = append(out.Roles, wire.MustJSON(append(RoleView(ro), wire.Ordered{{"permissions", s.PermissionsOf(ro.ID)}}...)))
	}
	now := time.Now()
	for _, a := range SortedBySeq(s.St.Actions, func(a *Action) int64 { return a.Seq }) {
		out.Actions = append(out.Actions, wire.MustJSON(a.View(now)))
	}
	for _, p := range s.St.PhoneProviders { // a tenant has at most one
		out.PhoneProviders = append(out.PhoneProviders, wire.MustJSON(p))
	}
	for _, u := range SortedBySeq(s.St.Users, func(u *User) int64 { return u.Seq }) {
		out.Users = append(out.Users, wire.MustJSON(append(u.View(), wire.Ordered{{"roles", s.RolesOf(u.UserID)}}...)))
	}
	for t, list := range s.St.Bindings {
		for _, b := range list {
			out.TriggerBindings[t] = append(out.TriggerBindings[t], wire.MustJSON(s.BindingView(t, b, now)))
		}
	}
	for _, c := range SortedBySeq(s.St.Clients, func(c *ClientRecord) int64 { return c.Seq }) {
		out.Clients = append(out.Clients, wire.MustJSON(c.View(secrets)))
	}
	for _, g := range SortedBySeq(s.St.Grants, func(g *Grant) int64 { return g.Seq }) {
		out.ClientGrants = append(out.ClientGrants, wire.MustJSON(g))
	}
	s.snapshotOrgs(&out)
	return out
}

// The scope catalogue: each route needs <action>:<resource>.
var scopeResources = []string{"token_exchange_profiles", "actions", "roles", "resource_servers", "phone_providers", "users", "clients", "client_grants",
	"connections", "organizations", "organization_members", "organization_connections", "organization_client_grants",
	"organization_member_roles"}

// AllScopes is every scope of the catalogue: the four verbs of each
// resource, and read:client_keys (a client's secret) and
// update:client_keys (its rotation).
func AllScopes() []string {
	var out []string
	for _, res := range scopeResources {
		for _, verb := range []string{"read", "create", "update", "delete"} {
			out = append(out, verb+":"+res)
		}
	}
	out = append(append(out, SettingsScopes...), ThrottlingScopes...)
	return append(out, "read:client_keys", "update:client_keys")
}
