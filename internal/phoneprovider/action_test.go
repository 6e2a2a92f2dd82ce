package phoneprovider_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/phoneprovider"
	"github.com/tenant-iac/terraform-provider-tenant/internal/provider"
)

var actionType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"provider_id": tftypes.String, "to": tftypes.String, "delivery_method": tftypes.String,
}}

func actionConfig(t *testing.T, providerID, to string, method any) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(actionType, tftypes.NewValue(actionType, map[string]tftypes.Value{
		"provider_id": tftypes.NewValue(tftypes.String, providerID), "to": tftypes.NewValue(tftypes.String, to),
		"delivery_method": tftypes.NewValue(tftypes.String, method),
	}))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// server returns a configured protocol server pointed at a fresh emulator.
//
//lint:ignore SA1019 the action RPCs are only reachable through this interface in terraform-plugin-go v0.31.
func server(t *testing.T, emu *emulator.Server) tfprotov6.ProviderServerWithActions {
	t.Helper()
	base, err := providerserver.NewProtocol6WithError(provider.New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	srv, ok := base.(tfprotov6.ProviderServerWithActions) //lint:ignore SA1019 see server's comment.
	if !ok {
		t.Fatalf("%T does not serve actions", base)
	}
	ctx := context.Background()
	schema, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// Every argument of the provider's schema, null but those set below.
	pt, ok := schema.Provider.ValueType().(tftypes.Object)
	if !ok {
		t.Fatalf("the provider's schema is a %T", schema.Provider.ValueType())
	}
	vals := map[string]tftypes.Value{}
	for k, typ := range pt.AttributeTypes {
		vals[k] = tftypes.NewValue(typ, nil)
	}
	vals["domain"] = tftypes.NewValue(tftypes.String, emu.Domain())
	vals["client_id"] = tftypes.NewValue(tftypes.String, emu.ClientID())
	vals["client_secret"] = tftypes.NewValue(tftypes.String, emu.ClientSecret())
	cfg, _ := tfprotov6.NewDynamicValue(pt, tftypes.NewValue(pt, vals))
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.14.0", Config: &cfg})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	return srv
}

func errorsOf(diags []*tfprotov6.Diagnostic) string {
	var out []string
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return strings.Join(out, "\n")
}

func TestAction_schema(t *testing.T) {
	srv, _ := providerserver.NewProtocol6WithError(provider.New("test")())()
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := resp.ActionSchemas[phoneprovider.ActionTypeName]
	if !ok {
		t.Fatalf("no action schema; have %v", resp.ActionSchemas)
	}
	got := map[string]bool{}
	for _, a := range s.Schema.Block.Attributes {
		got[a.Name] = a.Required
		if a.Description == "" {
			t.Errorf("%s has no description", a.Name)
		}
	}
	if !got["provider_id"] || !got["to"] || got["delivery_method"] {
		t.Fatalf("required flags %v", got)
	}
}

func TestAction_validateConfig(t *testing.T) {
	emu, err := emulator.Start(emulator.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	srv := server(t, emu)
	emu.ResetStats()
	for _, tc := range []struct {
		id, to string
		method any
		want   string
	}{
		{"", "+15551234567", nil, "Attribute provider_id UTF-8 character count must be between 1 and 255, got: 0"},
		{strings.Repeat("p", 256), "+15551234567", nil, "Attribute provider_id UTF-8 character count must be between 1 and 255, got: 256"},
		{strings.Repeat("é", 256), "+15551234567", nil, "Attribute provider_id UTF-8 character count must be between 1 and 255, got: 256"},
		{"..", "+15551234567", nil, `Attribute provider_id must not be "." or ".."`},
		{"pro_x", "", nil, "Attribute to UTF-8 character count must be between 1 and 16, got: 0"},
		{"pro_x", "+123456789012345678", nil, "Attribute to UTF-8 character count must be between 1 and 16, got: 19"},
		{"pro_x", "+15551234567", "email", `Attribute delivery_method value must be one of: ["text" "voice"], got: "email"`},
		{"pro_x", "+15551234567", "voice", ""},
	} {
		resp, err := srv.ValidateActionConfig(context.Background(), &tfprotov6.ValidateActionConfigRequest{
			ActionType: phoneprovider.ActionTypeName, Config: actionConfig(t, tc.id, tc.to, tc.method),
		})
		if err != nil {
			t.Fatal(err)
		}
		got := errorsOf(resp.Diagnostics)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%q/%q/%v: got %q, want %q", tc.id, tc.to, tc.method, got, tc.want)
		}
	}
	if n := emu.Stats().Total; n != 0 {
		t.Fatalf("validation sent %d requests", n)
	}
}

func TestAction_planAndInvoke(t *testing.T) {
	emu, err := emulator.Start(emulator.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	srv, ctx, id := server(t, emu), context.Background(), emu.Demo().PhoneProviderID

	plan, err := srv.PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: phoneprovider.ActionTypeName, Config: actionConfig(t, id, "+15551234567", "voice")})
	if err != nil || errorsOf(plan.Diagnostics) != "" {
		t.Fatalf("plan: %v %s", err, errorsOf(plan.Diagnostics))
	}
	if len(emu.Outbox()) != 0 {
		t.Fatal("planning sent a notification")
	}

	invoke := func(id string) (progress []string, diags string) {
		stream, err := srv.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: phoneprovider.ActionTypeName, Config: actionConfig(t, id, "+15551234567", "voice")})
		if err != nil {
			t.Fatal(err)
		}
		for ev := range stream.Events {
			switch e := ev.Type.(type) {
			case tfprotov6.ProgressInvokeActionEventType:
				progress = append(progress, e.Message)
			case tfprotov6.CompletedInvokeActionEventType:
				diags = errorsOf(e.Diagnostics)
			}
		}
		return progress, diags
	}
	progress, diags := invoke(id)
	t.Logf("progress events: %q", progress)
	if diags != "" {
		t.Fatalf("invoke failed: %s", diags)
	}
	if len(progress) != 2 || !strings.Contains(progress[0], "to +15551234567") || !strings.Contains(progress[1], "Test notification successfully sent for processing") {
		t.Fatalf("progress %q", progress)
	}
	out := emu.Outbox()
	t.Logf("outbox: %+v", out)
	if len(out) != 1 || out[0].ProviderID != id || out[0].To != "+15551234567" || out[0].DeliveryMethod != "voice" {
		t.Fatalf("outbox %+v", out)
	}

	_, diags = invoke("pro_doesnotexist")
	t.Logf("unknown provider: %s", diags)
	if !strings.Contains(diags, `phone provider "pro_doesnotexist" does not exist`) || !strings.Contains(diags, "404") {
		t.Fatalf("diags %q", diags)
	}
	if len(emu.Outbox()) != 1 {
		t.Fatal("a failed invoke reached the outbox")
	}
}

// TestAccPhoneProviderTest_trigger runs the action from a lifecycle
// action_trigger through the terraform CLI (Terraform 1.14+).
func TestAccPhoneProviderTest_trigger(t *testing.T) {
	target := acctest.NewTargetWith(t, emulator.Options{Demo: true})
	emu := target.RequireEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{{
			Config: target.Config(`
data "tenant_phone_provider" "current" {}

action "tenant_phone_provider_test" "test" {
  config {
    provider_id     = data.tenant_phone_provider.current.id
    to              = "+15550001111"
    delivery_method = "text"
  }
}

resource "terraform_data" "trigger" {
  input = "send"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.tenant_phone_provider_test.test]
    }
  }
}
`),
			Check: func(*terraform.State) error {
				out := emu.Outbox()
				if len(out) != 1 || out[0].To != "+15550001111" || out[0].DeliveryMethod != "text" {
					return fmt.Errorf("outbox %+v", out)
				}
				return nil
			},
		}},
	})
}

func TestAccPhoneProviderDataSource_basic(t *testing.T) {
	target := acctest.NewTargetWith(t, emulator.Options{Demo: true})
	emu := target.RequireEmulator(t)
	ds := "data.tenant_phone_provider.current"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: target.Config(`
data "tenant_phone_provider" "current" {}

output "id" {
  value = data.tenant_phone_provider.current.id
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("id"), knownvalue.StringExact(emu.Demo().PhoneProviderID)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("name"), knownvalue.StringExact("custom")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("channel"), knownvalue.StringExact("phone")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("disabled"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("configuration"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"delivery_methods": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("text"), knownvalue.StringExact("voice")}),
					"sid":              knownvalue.Null(),
					"default_from":     knownvalue.Null(),
					"mssid":            knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("tenant"), knownvalue.NotNull()),
			},
		}},
	})
}

func TestAccPhoneProviderDataSource_none(t *testing.T) {
	target := acctest.NewTarget(t)
	target.RequireEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			PlanOnly: true, Config: target.Config("\ndata \"tenant_phone_provider\" \"current\" {}\n"),
			ExpectError: acctest.ExpectError(`The tenant has no phone provider configured`),
		}},
	})
}
