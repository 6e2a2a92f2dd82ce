package resourceserver

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestServerModel_unknownAndNullAreNotSent(t *testing.T) {
	m := serverModel{
		Identifier: types.StringValue("https://a"), Name: types.StringUnknown(), SigningAlg: types.StringNull(),
		SigningSecret: types.StringUnknown(), AllowOfflineAccess: types.BoolUnknown(), TokenLifetime: types.Int64Unknown(),
		TokenLifetimeForWeb: types.Int64Null(), SkipConsent: types.BoolUnknown(), EnforcePolicies: types.BoolNull(),
		TokenDialect: types.StringUnknown(), Scopes: types.SetNull(scopeType),
	}
	rs, d := m.toAPI(context.Background(), false)
	if d.HasError() {
		t.Fatal(d)
	}
	if rs.Name != nil || rs.SigningAlg != nil || rs.SigningSecret != nil || rs.AllowOfflineAccess != nil || rs.TokenLifetime != nil ||
		rs.TokenLifetimeForWeb != nil || rs.SkipConsentForVerifiableFirstPartyClients != nil || rs.EnforcePolicies != nil || rs.TokenDialect != nil || rs.Scopes != nil {
		t.Fatalf("unknown or null values sent: %+v", rs)
	}
	// On update a null scope set clears the scopes.
	rs, _ = m.toAPI(context.Background(), true)
	if rs.Scopes == nil || len(*rs.Scopes) != 0 {
		t.Fatalf("update must send an empty list: %+v", rs.Scopes)
	}
}

func TestServerModel_roundTrip(t *testing.T) {
	name, alg, secret, life, dialect, yes := "N", "HS256", "0123456789abcdef", int64(60), "access_token", true
	scopes := []mgmt.ResourceServerScope{{Value: "read:a", Description: "A"}, {Value: "read:b"}}
	in := &mgmt.ResourceServer{ID: "abc", Identifier: "https://a", Name: &name, SigningAlg: &alg, SigningSecret: &secret, TokenLifetime: &life,
		TokenLifetimeForWeb: &life, AllowOfflineAccess: &yes, SkipConsentForVerifiableFirstPartyClients: &yes, EnforcePolicies: &yes, TokenDialect: &dialect, Scopes: &scopes}
	var m serverModel
	if d := m.fromAPI(in); d.HasError() {
		t.Fatal(d)
	}
	if m.ClientID.IsNull() != true || m.IsSystem.ValueBool() || len(m.Scopes.Elements()) != 2 {
		t.Fatalf("%+v", m)
	}
	out, d := m.toAPI(context.Background(), false)
	if d.HasError() || *out.Name != "N" || *out.SigningSecret != secret || *out.TokenDialect != dialect || len(*out.Scopes) != 2 {
		t.Fatalf("%+v %v", out, d)
	}
	// Absent fields and an empty scope list read back as null.
	var empty serverModel
	_ = empty.fromAPI(&mgmt.ResourceServer{ID: "x", Identifier: "y", Scopes: &[]mgmt.ResourceServerScope{}})
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
		if IsSystemIdentifier(ep, ident) != want {
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
