package emulator

import "time"

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
		ID: randomHex(24), Name: &name, Identifier: s.Audience(), TokenLifetime: 86400, TokenLifetimeForWeb: 7200,
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
	a.CreatedAt, a.UpdatedAt = nanos(past), nanos(past)
	s.startBuild(a, past, true)
	a.settle(now)
	desc := "Role seeded by the emulator for the demo."
	ro := &role{ID: "rol_" + randomString(16), Name: "demo-role", Description: &desc, Type: "tenant", Seq: s.st.next()}
	s.st.Roles[ro.ID] = ro
	p := &phoneProvider{
		ID: "pro_" + randomString(22), Tenant: s.opts.TenantName, Name: "custom", Channel: "phone",
		Configuration: &phoneConfig{DeliveryMethods: []string{"text", "voice"}}, CreatedAt: millis(now), UpdatedAt: millis(now),
	}
	s.st.PhoneProviders[p.ID] = p
	s.st.PhoneCredentials[p.ID] = map[string]string{}
	s.demo = DemoIDs{ActionID: a.ID, RoleID: ro.ID, PhoneProviderID: p.ID}
}
