package resourceserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestServerModel_unknownAndNullAreNotSentOnCreate(t *testing.T) {
	m := serverModel{
		Identifier:          types.StringValue("https://a"),
		Name:                types.StringUnknown(),
		SigningAlg:          types.StringNull(),
		SigningSecret:       types.StringUnknown(),
		AllowOfflineAccess:  types.BoolUnknown(),
		TokenLifetime:       types.Int64Unknown(),
		TokenLifetimeForWeb: types.Int64Null(),
		SkipConsent:         types.BoolUnknown(),
		EnforcePolicies:     types.BoolNull(),
		TokenDialect:        types.StringUnknown(),
		Scopes:              types.MapNull(types.StringType),
	}
	rs, d := m.toCreate(context.Background(), resourceModel{serverModel: m})
	if d.HasError() {
		t.Fatal(d)
	}
	if rs.Name != nil || rs.SigningAlg != nil || rs.SigningSecret != nil || rs.AllowOfflineAccess != nil || rs.TokenLifetime != nil ||
		rs.TokenLifetimeForWeb != nil || rs.SkipConsentForVerifiableFirstPartyClients != nil || rs.EnforcePolicies != nil || rs.TokenDialect != nil || rs.Scopes != nil {
		t.Fatalf("unknown or null values sent: %+v", rs)
	}
}

// base is the state of an API created with name and identifier only.
func base() serverModel {
	return serverModel{
		ID:                  types.StringValue("0123456789abcdef01234567"),
		Identifier:          types.StringValue("https://a"),
		Name:                types.StringValue("A"),
		Scopes:              types.MapNull(types.StringType),
		SigningAlg:          types.StringValue("RS256"),
		SigningSecret:       types.StringNull(),
		AllowOfflineAccess:  types.BoolValue(false),
		TokenLifetime:       types.Int64Value(86400),
		TokenLifetimeForWeb: types.Int64Value(7200),
		SkipConsent:         types.BoolValue(false),
		EnforcePolicies:     types.BoolNull(),
		TokenDialect:        types.StringNull(),
		AllowOnlineAccess:   types.BoolValue(false),
		EphemeralSessions:   types.BoolValue(false),
		SubjectTypeAuth:     subjectTypeAuthValue(defaultUserPolicy, defaultClientPolicy),
		ConsentPolicy:       types.StringNull(),
		AuthzDetails:        types.ListNull(detailType),
		ProofOfPossession:   types.ObjectNull(popType.AttrTypes),
		TokenEncryption:     types.ObjectNull(encryptionType.AttrTypes),
		AuthzPolicy:         types.ObjectNull(authzPolicyType.AttrTypes),
		ClientID:            types.StringNull(),
		IsSystem:            types.BoolValue(false),
	}
}

func updateJSON(t *testing.T, plan, state serverModel) string {
	t.Helper()
	u, d := plan.toUpdate(context.Background(), state, types.StringNull(), false)
	if d.HasError() {
		t.Fatal(d)
	}
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestServerModel_updateSendsOnlyWhatChanged(t *testing.T) {
	state := base()
	withScopes := base()
	withScopes.Scopes = types.MapValueMust(types.StringType, map[string]attr.Value{"read:a": types.StringValue("")})
	for name, tc := range map[string]struct {
		plan  func(*serverModel)
		state serverModel
		want  string
	}{
		"nothing changed": {func(*serverModel) {}, state, `{}`},
		// The stale 7200 is not sent: the plan carries the lowered default.
		"token_lifetime alone, web default follows": {func(m *serverModel) {
			m.TokenLifetime, m.TokenLifetimeForWeb = types.Int64Value(3600), types.Int64Value(3600)
		}, state, `{"token_lifetime":3600,"token_lifetime_for_web":3600}`},
		"name changed, scopes left out stay untouched": {func(m *serverModel) { m.Name = types.StringValue("B") }, withScopes, `{"name":"B"}`},
		"name null: never sent as null":                {func(m *serverModel) { m.Name = types.StringNull() }, state, `{}`},
		"scopes removed":                               {func(m *serverModel) { m.Scopes = types.MapNull(types.StringType) }, withScopes, `{"scopes":[]}`},
		"scopes set":                                   {func(m *serverModel) { m.Scopes = withScopes.Scopes }, state, `{"scopes":[{"value":"read:a"}]}`},
		// The API replaces the whole list (reference §4): an edit of one
		// description sends every scope, in the order of their values.
		"one description edited": {func(m *serverModel) {
			m.Scopes = types.MapValueMust(types.StringType, map[string]attr.Value{
				"write:b": types.StringValue("B"), "read:a": types.StringValue("A"), "delete:c": types.StringValue(""),
			})
		}, func() serverModel {
			s := base()
			s.Scopes = types.MapValueMust(types.StringType, map[string]attr.Value{
				"write:b": types.StringValue("B"), "read:a": types.StringValue(""), "delete:c": types.StringValue(""),
			})
			return s
		}(), `{"scopes":[{"value":"delete:c"},{"value":"read:a","description":"A"},{"value":"write:b","description":"B"}]}`},
		"dialect and policies null: never sent as null": {func(m *serverModel) {
			m.TokenDialect, m.EnforcePolicies = types.StringNull(), types.BoolNull()
		}, func() serverModel {
			s := base()
			s.TokenDialect, s.EnforcePolicies = types.StringValue("access_token_authz"), types.BoolValue(true)
			return s
		}(), `{}`},
		// HS256 to RS256: the secret goes with the algorithm, never as null.
		"HS256 removed": {func(m *serverModel) {
			m.SigningAlg, m.SigningSecret = types.StringValue("RS256"), types.StringNull()
		}, func() serverModel {
			s := base()
			s.SigningAlg, s.SigningSecret = types.StringValue("HS256"), types.StringValue("0123456789abcdefXYZ")
			return s
		}(), `{"signing_alg":"RS256"}`},
		"subject type authorization changed": {func(m *serverModel) {
			m.SubjectTypeAuth = subjectTypeAuthValue("deny_all", defaultClientPolicy)
		}, state, `{"subject_type_authorization":{"user":{"policy":"deny_all"},"client":{"policy":"require_client_grant"}}}`},
		"proof of possession set": {func(m *serverModel) {
			m.ProofOfPossession = popFromAPI(&mgmt.ProofOfPossession{Mechanism: "dpop", Required: true})
		}, state, `{"proof_of_possession":{"mechanism":"dpop","required":true}}`},
		"nested settings removed": {func(m *serverModel) {
			m.ProofOfPossession, m.AuthzDetails = types.ObjectNull(popType.AttrTypes), types.ListNull(detailType)
			m.ConsentPolicy, m.AuthzPolicy = types.StringNull(), types.ObjectNull(authzPolicyType.AttrTypes)
			m.AllowOnlineAccess = types.BoolValue(false)
		}, func() serverModel {
			s := base()
			s.ProofOfPossession = popFromAPI(&mgmt.ProofOfPossession{Mechanism: "mtls", Required: false, RequiredFor: "all_clients"})
			s.AuthzDetails = detailsFromAPI(&[]mgmt.AuthorizationDetail{{Type: "payment"}})
			s.ConsentPolicy = types.StringValue("transactional-authorization-with-mfa")
			s.AuthzPolicy = authzPolicyFromAPI(&mgmt.AuthorizationPolicy{PolicyID: "pol_1"})
			s.AllowOnlineAccess = types.BoolValue(true)
			return s
		}(), `{"allow_online_access":false,"consent_policy":null,"authorization_details":null,"proof_of_possession":null,"authorization_policy":null}`},
		"HS256 chosen, secret generated": {func(m *serverModel) {
			m.SigningAlg, m.SigningSecret = types.StringValue("HS256"), types.StringUnknown()
		}, state, `{"signing_alg":"HS256"}`},
	} {
		t.Run(name, func(t *testing.T) {
			plan := tc.state
			tc.plan(&plan)
			if got := updateJSON(t, plan, tc.state); got != tc.want {
				t.Fatalf("PATCH body %s, want %s", got, tc.want)
			}
		})
	}
}

func TestServerModel_roundTrip(t *testing.T) {
	name, alg, secret, life, dialect, yes := "N", "HS256", "0123456789abcdef", int64(60), "access_token", true
	scopes := []mgmt.ResourceServerScope{{Value: "read:a", Description: "A"}, {Value: "read:b"}}
	in := &mgmt.ResourceServer{ID: "abc", Identifier: "https://a", Name: &name, SigningAlg: &alg, SigningSecret: &secret, TokenLifetime: &life,
		TokenLifetimeForWeb: &life, AllowOfflineAccess: &yes, SkipConsentForVerifiableFirstPartyClients: &yes, EnforcePolicies: &yes, TokenDialect: &dialect, Scopes: &scopes}
	m := serverModel{readSecret: true}
	if d := m.fromAPI(context.Background(), in); d.HasError() {
		t.Fatal(d)
	}
	if m.ClientID.IsNull() != true || m.IsSystem.ValueBool() || len(m.Scopes.Elements()) != 2 {
		t.Fatalf("%+v", m)
	}
	out, d := m.toCreate(context.Background(), resourceModel{serverModel: m})
	if d.HasError() || *out.Name != "N" || *out.SigningSecret != secret || *out.TokenDialect != dialect || len(*out.Scopes) != 2 {
		t.Fatalf("%+v %v", out, d)
	}
	// Absent fields and an empty scope list read back as null.
	var empty serverModel
	_ = empty.fromAPI(context.Background(), &mgmt.ResourceServer{ID: "x", Identifier: "y", Scopes: &[]mgmt.ResourceServerScope{}})
	for n, v := range map[string]attr.Value{"name": empty.Name, "scopes": empty.Scopes, "token_dialect": empty.TokenDialect, "enforce_policies": empty.EnforcePolicies} {
		if !v.IsNull() {
			t.Errorf("%s = %v, want null", n, v)
		}
	}
}

func TestSchema_validateImplementation(t *testing.T) {
	ctx := context.Background()
	var rs resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &rs)
	if d := rs.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	var ds datasource.SchemaResponse
	NewDataSource().Schema(ctx, datasource.SchemaRequest{}, &ds)
	if d := ds.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	if !rs.Schema.Attributes["signing_secret"].IsSensitive() || !ds.Schema.Attributes["signing_secret"].IsSensitive() {
		t.Fatal("signing_secret must be sensitive")
	}
}

func TestIsSystemIdentifier(t *testing.T) {
	ep, _ := mgmt.ParseDomain("acme.example.com")
	for ident, want := range map[string]bool{
		"https://acme.example.com/api/v2/": true, "https://acme.example.com/me/": true, "urn:auth0:express-configure": true,
		"https://acme.example.com/api/v2": false, "https://api.example.com/": false,
	} {
		if isSystemIdentifier(ep, ident) != want {
			t.Errorf("%s: want %v", ident, want)
		}
	}
}

func TestSameServer(t *testing.T) {
	name, other, life := "N", "M", int64(60)
	scopes := []mgmt.ResourceServerScope{{Value: "a"}, {Value: "b", Description: "B"}}
	reversed := []mgmt.ResourceServerScope{{Value: "b", Description: "B"}, {Value: "a"}}
	sent := mgmt.ResourceServer{Identifier: "https://x", Name: &name, TokenLifetime: &life, Scopes: &scopes}
	found := mgmt.ResourceServer{ID: "1", Identifier: "https://x", Name: &name, TokenLifetime: &life, Scopes: &reversed, SigningAlg: &name}
	if !sameServer(sent, &found) {
		t.Fatal("equal values (scopes in another order, unsent fields defaulted) must match")
	}
	found.Name = &other
	if sameServer(sent, &found) {
		t.Fatal("a different name must not match")
	}
	found.Name = &name
	found.Scopes = &[]mgmt.ResourceServerScope{{Value: "a"}}
	if sameServer(sent, &found) {
		t.Fatal("different scopes must not match")
	}
}

func TestEncryptionFromAPI_keepsPEMUntilTheThumbprintChanges(t *testing.T) {
	ctx := context.Background()
	api := &mgmt.TokenEncryption{Format: "compact-nested-jwe", EncryptionKey: mgmt.EncryptionKey{Alg: "RSA-OAEP-256", ThumbprintSHA256: "T1"}}
	prior := func(pem string, thumb types.String) types.Object {
		return types.ObjectValueMust(encryptionType.AttrTypes, map[string]attr.Value{
			"format": types.StringValue("compact-nested-jwe"),
			"encryption_key": types.ObjectValueMust(keyType.AttrTypes, map[string]attr.Value{
				"name":              types.StringNull(),
				"alg":               types.StringValue("RSA-OAEP-256"),
				"kid":               types.StringNull(),
				"pem":               types.StringValue(pem),
				"thumbprint_sha256": thumb,
			}),
		})
	}
	pemOf := func(o types.Object) attr.Value {
		return o.Attributes()["encryption_key"].(types.Object).Attributes()["pem"]
	}
	for name, tc := range map[string]struct {
		prior types.Object
		want  attr.Value
	}{
		"after a write (thumbprint unknown in the plan)": {prior("PEM", types.StringUnknown()), types.StringValue("PEM")},
		"refresh, same key":            {prior("PEM", types.StringValue("T1")), types.StringValue("PEM")},
		"refresh, key changed outside": {prior("PEM", types.StringValue("T0")), types.StringNull()},
		"after an import":              {types.ObjectNull(encryptionType.AttrTypes), types.StringNull()},
	} {
		got, d := encryptionFromAPI(ctx, api, tc.prior)
		if d.HasError() {
			t.Fatal(d)
		}
		if !pemOf(got).Equal(tc.want) {
			t.Errorf("%s: pem %v, want %v", name, pemOf(got), tc.want)
		}
	}
	// What is sent never holds the thumbprint.
	var d diag.Diagnostics
	sent := encryptionToAPI(ctx, prior("PEM", types.StringValue("T1")), &d)
	if b, _ := json.Marshal(sent); d.HasError() || strings.Contains(string(b), "thumbprint") || !strings.Contains(string(b), `"pem":"PEM"`) {
		t.Fatalf("sent %s", b)
	}
}

// TestServerModel_createLeavesOutUnconfiguredFeatures: the fields of
// features a tenant may lack are sent only when the configuration sets
// them, though the plan shows their defaults.
func TestServerModel_createLeavesOutUnconfiguredFeatures(t *testing.T) {
	plan := base()
	plan.ID = types.StringUnknown()
	config := base()
	config.AllowOnlineAccess, config.EphemeralSessions, config.SubjectTypeAuth = types.BoolNull(), types.BoolNull(), types.ObjectNull(subjectTypeAuthType.AttrTypes)
	body, d := plan.toCreate(context.Background(), resourceModel{serverModel: config})
	if d.HasError() {
		t.Fatal(d)
	}
	b, _ := json.Marshal(body)
	for _, field := range []string{"allow_online_access", "subject_type_authorization"} {
		if strings.Contains(string(b), field) {
			t.Errorf("%s sent although the configuration does not set it: %s", field, b)
		}
	}
	if !strings.Contains(string(b), `"signing_alg":"RS256"`) || !strings.Contains(string(b), `"token_lifetime":86400`) {
		t.Errorf("the defaults every tenant has are sent, so the tenant holds the plan: %s", b)
	}
	body, _ = plan.toCreate(context.Background(), resourceModel{serverModel: plan})
	if b, _ := json.Marshal(body); !strings.Contains(string(b), `"allow_online_access":false`) || !strings.Contains(string(b), "subject_type_authorization") {
		t.Errorf("configured feature fields not sent: %s", b)
	}
}

// TestServerModel_signingSecretOnlyWithHS256: a secret the API still shows
// after a switch to another algorithm is not read into the state, even when
// asked for.
func TestServerModel_signingSecretOnlyWithHS256(t *testing.T) {
	rs256, hs256, secret := "RS256", "HS256", "0123456789abcdefXYZ"
	m := serverModel{readSecret: true}
	_ = m.fromAPI(context.Background(), &mgmt.ResourceServer{ID: "1", Identifier: "https://a", SigningAlg: &rs256, SigningSecret: &secret})
	if !m.SigningSecret.IsNull() {
		t.Fatalf("signing_secret = %v with RS256", m.SigningSecret)
	}
	_ = m.fromAPI(context.Background(), &mgmt.ResourceServer{ID: "1", Identifier: "https://a", SigningAlg: &hs256, SigningSecret: &secret})
	if m.SigningSecret.ValueString() != secret {
		t.Fatalf("signing_secret = %v with HS256", m.SigningSecret)
	}
}

// TestResourceModel_signingSecretOnlyHeld: the resource reads the tenant's
// secret only while the model (the plan, or the state) holds one.
func TestResourceModel_signingSecretOnlyHeld(t *testing.T) {
	hs256, secret := "HS256", "0123456789abcdefXYZ"
	api := &mgmt.ResourceServer{ID: "1", Identifier: "https://a", SigningAlg: &hs256, SigningSecret: &secret}
	var none resourceModel
	_ = none.fromAPI(context.Background(), api)
	if !none.SigningSecret.IsNull() {
		t.Errorf("a model without a secret read %v", none.SigningSecret)
	}
	held := resourceModel{serverModel: serverModel{SigningSecret: types.StringValue("configured-0123456789")}}
	_ = held.fromAPI(context.Background(), api)
	if held.SigningSecret.ValueString() != secret {
		t.Errorf("a model with a secret read %v, want the tenant's", held.SigningSecret)
	}
}
