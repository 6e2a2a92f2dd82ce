package tenant

import (
	"slices"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// SeedSystem creates the tenant's system Management API, whose scopes are the
// catalogue.
func (s *Tenant) SeedSystem() {
	name := "Auth0 Management API"
	var scopes []Scope
	for _, sc := range AllScopes() {
		d := sc
		scopes = append(scopes, Scope{Value: sc, Description: &d})
	}
	rs := &ResourceServer{
		ID: wire.RandomHex(24), Name: &name, Identifier: s.Audience(), TokenLifetime: 86400, TokenLifetimeForWeb: 7200,
		SigningAlg: "RS256", Scopes: &scopes, IsSystem: true, Seq: s.St.Next(),
	}
	s.St.ResourceServers[rs.ID] = rs
}

// SeedDemo creates a deployed custom-token-exchange action, a role and a
// phone provider for the demo configuration. The action goes through the
// same build and deploy as one created with deploy:true; its build is
// started one build length in the past so that it is deployed at once.
func (s *Tenant) SeedDemo() {
	now := time.Now()
	a := &Action{
		Name: "demo-token-exchange", Triggers: []Trigger{{ID: "custom-token-exchange", Version: "v1"}},
		Code: "exports.onExecuteCustomTokenExchange = async (event, api) => {};", Dependencies: []Dependency{},
		Runtime: "node22", Secrets: []Secret{}, Versions: []*ActionVersion{},
	}
	s.AddAction(a, now, true)
	past := now.Add(-a.Build.Length())
	a.CreatedAt, a.UpdatedAt = wire.Nanos(past), wire.Nanos(past)
	s.StartBuild(a, past, true)
	a.Settle(now)
	desc := "Role seeded by the emulator for the demo."
	ro := &Role{ID: "rol_" + wire.RandomString(16), Name: "demo-role", Description: &desc, Type: "tenant", Seq: s.St.Next()}
	s.St.Roles[ro.ID] = ro
	p := &PhoneProvider{
		ID: "pro_" + wire.RandomString(22), Tenant: s.Name, Name: "custom", Channel: "phone",
		Configuration: &PhoneConfig{DeliveryMethods: []string{"text", "voice"}}, CreatedAt: wire.Millis(now), UpdatedAt: wire.Millis(now),
	}
	s.St.PhoneProviders[p.ID] = p
	s.St.PhoneCredentials[p.ID] = map[string]string{}
	s.Seeded = DemoIDs{ActionID: a.ID, RoleID: ro.ID, PhoneProviderID: p.ID}
}

// ClientSeed is a client the emulator starts with (emulator.Client).
type ClientSeed struct {
	ID     string
	Secret string
	Scopes []string
	// Global clients may create token exchange profiles.
	Global bool
	// TokenLifetime overrides the Management API's token lifetime when set.
	TokenLifetime time.Duration
}

// SeedClient makes c a client of the tenant named name, a machine to machine
// application, with a grant for the Management API that holds c's scopes;
// a client c names that exists already gets c's secret and settings and
// its grant c's scopes.
func (s *Tenant) SeedClient(c ClientSeed, name string) {
	rec, ok := s.St.Clients[c.ID]
	if !ok {
		rec = s.NewClient("non_interactive")
		rec.ID = c.ID
		rec.Fields["name"] = wire.Raw(name)
		rec.Fields["app_type"] = wire.Raw("non_interactive")
		rec.Fields["grant_types"] = wire.Raw([]string{"client_credentials"})
		s.St.Clients[c.ID] = rec
		s.EnableConnectionsFor(c.ID)
	}
	rec.Secret, rec.Global, rec.TokenLifetime = c.Secret, c.Global, c.TokenLifetime
	scopes := slices.Clone(c.Scopes)
	if scopes == nil {
		scopes = []string{}
	}
	if g := s.GrantFor(c.ID, s.Audience()); g != nil {
		g.Scope, g.AllowAllScopes = &scopes, nil
		return
	}
	g := &Grant{ID: "cgr_" + wire.RandomString(16), ClientID: c.ID, Audience: s.Audience(), Scope: &scopes, SubjectType: "client", Seq: s.St.Next()}
	s.St.Grants[g.ID] = g
}

// MoveGrants points the grants for the audience from (the Management API of
// a saved tenant, at its old address) to to.
func (s *Tenant) MoveGrants(from, to string) {
	if from == "" || from == to {
		return
	}
	for _, g := range s.St.Grants {
		if g.Audience == from {
			g.Audience = to
		}
	}
}
