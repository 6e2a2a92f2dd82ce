package resourceserver

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// A scope this run's role permissions assign that the API's plan leaves
// out is a warning: whether the tenant refuses a permission whose scope the
// API does not define is not known (reference §3, §8).
func TestModifyPlan_undefinedScopeWarns(t *testing.T) {
	ctx := context.Background()
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	tenant, err := conns.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	tenant.Planned.NeedScope("https://api.example.com/a", "write:a", "rol_1")

	var sr resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	values := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		values[name] = tftypes.NewValue(at, nil)
	}
	values["identifier"] = tftypes.NewValue(tftypes.String, "https://api.example.com/a")
	values["scopes"] = tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"read:a": tftypes.NewValue(tftypes.String, "")})
	plan := tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, values)}
	req := resource.ModifyPlanRequest{
		State: tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)},
		Plan:  plan,
	}
	resp := resource.ModifyPlanResponse{Plan: plan}
	r := &serverResource{WithTenant: framework.WithTenant{Tenant: tenant}}
	r.ModifyPlan(ctx, req, &resp)
	var warned bool
	for _, d := range resp.Diagnostics {
		if d.Severity() == diag.SeverityError {
			t.Fatalf("error: %s: %s", d.Summary(), d.Detail())
		}
		warned = warned || strings.Contains(d.Detail(), `"write:a"`) && strings.Contains(d.Detail(), "rol_1")
	}
	if !warned {
		t.Fatalf("no warning of write:a: %v", resp.Diagnostics)
	}
}
