package emulator

import (
	"slices"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// seedSystem creates the tenant's system Management API, whose scopes are the
// catalogue.
func (s *Server) seedSystem() {
	name := "Auth0 Management API"
	var scopes []rsScope
	for _, sc := range AllScopes() {
		d := sc
		scopes = append(scopes, rsScope{Value: sc, Description: &d})
	}
	rs := &resourceServer{
		ID: wire.RandomHex(24), Name: &name, Identifier: s.Audience(), TokenLifetime: 86400, TokenLifetimeForWeb: 7200,
		SigningAlg: "RS256", Scopes: &scopes, IsSystem: true, Seq: s.st.next(),
	}
	s.st.ResourceServers[rs.ID] = rs
}

// seedDemo creates a deployed custom-token-exchange action, a role and a
// phone provider for the demo configuration. The action goes through the
// same build and deploy as one created with deploy:true; its build is
// started one build length in the past so that it is deployed at once.
func (s *Server) seedDemo() {
	now := time.Now()
	a := &action{
		Name: "demo-token-exchange", Triggers: []trigger{{ID: "custom-token-exchange", Version: "v1"}},
		Code: "exports.onExecuteCustomTokenExchange = async (event, api) => {};", Dependencies: []dependency{},
		Runtime: "node22", Secrets: []secret{}, Versions: []*actionVersion{},
	}
	s.addAction(a, now, true)
	past := now.Add(-a.Build.length())
	a.CreatedAt, a.UpdatedAt = wire.Nanos(past), wire.Nanos(past)
	s.startBuild(a, past, true)
	a.settle(now)
	desc := "Role seeded by the emulator for the demo."
	ro := &role{ID: "rol_" + wire.RandomString(16), Name: "demo-role", Description: &desc, Type: "tenant", Seq: s.st.next()}
	s.st.Roles[ro.ID] = ro
	p := &phoneProvider{
		ID: "pro_" + wire.RandomString(22), Tenant: s.opts.TenantName, Name: "custom", Channel: "phone",
		Configuration: &phoneConfig{DeliveryMethods: []string{"text", "voice"}}, CreatedAt: wire.Millis(now), UpdatedAt: wire.Millis(now),
	}
	s.st.PhoneProviders[p.ID] = p
	s.st.PhoneCredentials[p.ID] = map[string]string{}
	s.demo = DemoIDs{ActionID: a.ID, RoleID: ro.ID, PhoneProviderID: p.ID}
}

// seedClient makes c a client of the tenant named name, a machine to machine
// application, with a grant for the Management API that holds c's scopes;
// a client c names that exists already gets c's secret and settings and
// its grant c's scopes.
func (s *Server) seedClient(c Client, name string) {
	rec, ok := s.st.Clients[c.ID]
	if !ok {
		rec = s.newClient("non_interactive")
		rec.ID = c.ID
		rec.Fields["name"] = wire.Raw(name)
		rec.Fields["app_type"] = wire.Raw("non_interactive")
		rec.Fields["grant_types"] = wire.Raw([]string{"client_credentials"})
		s.st.Clients[c.ID] = rec
	}
	rec.Secret, rec.Global, rec.TokenLifetime = c.Secret, c.Global, c.TokenLifetime
	scopes := slices.Clone(c.Scopes)
	if scopes == nil {
		scopes = []string{}
	}
	if g := s.grantFor(c.ID, s.Audience()); g != nil {
		g.Scope, g.AllowAllScopes = &scopes, nil
		return
	}
	g := &grant{ID: "cgr_" + wire.RandomString(16), ClientID: c.ID, Audience: s.Audience(), Scope: &scopes, SubjectType: "client", Seq: s.st.next()}
	s.st.Grants[g.ID] = g
}

// moveGrants points the grants for the audience from (the Management API of
// a saved tenant, at its old address) to to.
func (s *Server) moveGrants(from, to string) {
	if from == "" || from == to {
		return
	}
	for _, g := range s.st.Grants {
		if g.Audience == from {
			g.Audience = to
		}
	}
}
