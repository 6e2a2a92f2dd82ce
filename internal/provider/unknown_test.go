package provider_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/provider"
)

// TestAccProvider_configurationUnknownAtPlan: a provider whose domain comes
// from a resource created in the same apply is not configured during the
// plan. The objects already in the state plan as the state holds them (one
// warning says why, instead of one "Unable to read" error per object), and
// the apply goes on with the configured provider; a data source, which
// must read the tenant at plan, fails with one clear error.
func TestAccProvider_configurationUnknownAtPlan(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	objects := fmt.Sprintf(`
resource "tenant_role" "r" {
  name = %[1]q
}

resource "tenant_resource_server" "a" {
  identifier = "https://api.example.com/%[1]s"
}
`, name)
	fromResource := func(resource string) string {
		return fmt.Sprintf(`
resource "terraform_data" %[1]q {
  input = %[2]q
}

provider "tenant" {
  domain        = terraform_data.%[1]s.output
  client_id     = %[3]q
  client_secret = %[4]q
}
`, resource, target.Domain, target.ClientID, target.ClientSecret)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{Config: target.Config(objects)},
			{
				Config: fromResource("domain") + objects,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("tenant_role.r", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("tenant_resource_server.a", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("terraform_data.domain", plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: fromResource("other") + objects + "\ndata \"tenant_role\" \"r\" {\n  name = tenant_role.r.name\n}\n",
				ExpectError: acctest.ExpectError(`Provider configuration not known until apply.*data source tenant_role reads the tenant ` +
					`during plan`),
			},
			{Config: target.Config(objects)},
		},
	})
}

// TestProvider_configureUnknown: settings known only at apply are one
// warning that names them, or, for a Terraform that can defer, no warning
// and every read deferred.
func TestProvider_configureUnknown(t *testing.T) {
	clearEnv(t)
	for _, tc := range []struct {
		deferral bool
		unknown  []string
		want     string
	}{
		{false, []string{"domain", "client_secret"}, "The provider's domain, client_secret come from values known only at apply"},
		{false, []string{"domain"}, "The provider's domain comes from values known only at apply"},
		{true, []string{"domain", "client_secret"}, ""},
	} {
		deferral, unknown := tc.deferral, tc.unknown
		srv := provider.NewServer("test")()
		vals := map[string]tftypes.Value{}
		for name, typ := range configType.AttributeTypes {
			vals[name] = tftypes.NewValue(typ, nil)
		}
		vals["client_secret"] = tftypes.NewValue(tftypes.String, "secret")
		for _, name := range unknown {
			vals[name] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		}
		vals["client_id"] = tftypes.NewValue(tftypes.String, "id")
		dv, err := tfprotov6.NewDynamicValue(configType, tftypes.NewValue(configType, vals))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{
			TerraformVersion: "1.11.4", Config: &dv,
			ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: deferral},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !deferral && (len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityWarning ||
			!strings.Contains(resp.Diagnostics[0].Detail, tc.want)) {
			t.Fatalf("no deferral: diagnostics %v, want one warning", resp.Diagnostics)
		}
		if deferral && len(resp.Diagnostics) > 0 {
			t.Fatalf("deferral allowed: diagnostics %v", resp.Diagnostics)
		}
		// A role in the state: kept as it is, or deferred.
		typ := schemas.ResourceSchemas["tenant_role"].ValueType().(tftypes.Object)
		state := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			state[name] = tftypes.NewValue(at, nil)
		}
		state["id"], state["name"] = tftypes.NewValue(tftypes.String, "rol_1"), tftypes.NewValue(tftypes.String, "r")
		current, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, state))
		if err != nil {
			t.Fatal(err)
		}
		read, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
			TypeName: "tenant_role", CurrentState: &current,
			ClientCapabilities: &tfprotov6.ReadResourceClientCapabilities{DeferralAllowed: deferral},
		})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case len(read.Diagnostics) > 0:
			t.Errorf("deferral %t: read diagnostics %v", deferral, read.Diagnostics)
		case deferral && (read.Deferred == nil || read.Deferred.Reason != tfprotov6.DeferredReasonProviderConfigUnknown):
			t.Errorf("deferral allowed: the read is not deferred: %+v", read.Deferred)
		case !deferral && (read.Deferred != nil || read.NewState == nil || string(read.NewState.MsgPack) != string(current.MsgPack)):
			t.Errorf("no deferral: the read did not keep the state: %+v", read)
		}
	}
}
