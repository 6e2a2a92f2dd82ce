package tokenexchangeprofile

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestModifyPlan_warnsBeforeReplacement(t *testing.T) {
	ctx := context.Background()
	var sr resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx)
	run := func(action, name string) string {
		var state, plan profileModel
		state.fromAPI(&mgmt.TokenExchangeProfile{ID: "tep_1", Name: "n", SubjectTokenType: "urn:acme:x", ActionID: "a1", Type: "custom_authentication"})
		plan = state
		plan.ActionID, plan.Name = types.StringValue(action), types.StringValue(name)
		req := resource.ModifyPlanRequest{
			State: tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)},
			Plan:  tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)},
		}
		req.State.Set(ctx, &state)
		req.Plan.Set(ctx, &plan)
		resp := resource.ModifyPlanResponse{Plan: req.Plan}
		NewResource().(resource.ResourceWithModifyPlan).ModifyPlan(ctx, req, &resp)
		var out []string
		for _, d := range resp.Diagnostics {
			out = append(out, d.Summary()+": "+d.Detail())
		}
		return strings.Join(out, "\n")
	}
	if got := run("a2", "n"); !strings.Contains(got, "will be replaced") || !strings.Contains(got, `subject_token_type "urn:acme:x" fails`) {
		t.Fatalf("replacement: %q", got)
	}
	if got := run("a1", "renamed"); got != "" {
		t.Fatalf("an in-place update warns: %q", got)
	}
}

// An action the tenant refuses a profile on (reference §1 [P]) is a plan
// error naming the cause and what to do; an action this run deploys is not.
func TestCheckAction(t *testing.T) {
	ctx := context.Background()
	emu, err := emulator.Start(emulator.Options{BuildDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	tenant, err := conns.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	create := func(trigger string, deploy bool) string {
		a, err := tenant.API.CreateAction(ctx, mgmt.ActionCreate{Name: "a", Code: "x", Deploy: deploy,
			SupportedTriggers: []mgmt.ActionTrigger{{ID: trigger, Version: "v1"}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tenant.API.WaitForAction(ctx, a.ID, map[bool]func(*mgmt.Action) bool{true: mgmt.IsDeployed, false: mgmt.IsBuilt}[deploy]); err != nil {
			t.Fatal(err)
		}
		return a.ID
	}
	r := &profileResource{WithTenant: framework.WithTenant{Tenant: tenant}}
	deployedLater := create(mgmt.TriggerCustomTokenExchange, false)
	tenant.Planned.Manage(deployedLater)
	tenant.Planned.Deploy(deployedLater)
	for id, want := range map[string]string{
		"00000000-0000-4000-8000-000000000000":         `No action with id "00000000-0000-4000-8000-000000000000" exists in the tenant`,
		create(mgmt.TriggerCustomTokenExchange, false): `of the trigger "custom-token-exchange" has no deployed version`,
		create("post-login", true):                     `runs at the trigger "post-login", not "custom-token-exchange"`,
		create(mgmt.TriggerCustomTokenExchange, true):  "",
		deployedLater: "",
	} {
		var diags diag.Diagnostics
		r.checkAction(ctx, id, &diags)
		switch {
		case want == "" && len(diags) > 0:
			t.Errorf("%s: a deployed custom-token-exchange action: %v", id, diags)
		case want != "" && (len(diags) != 1 || diags[0].Severity() != diag.SeverityError || !strings.Contains(diags[0].Detail(), want)):
			t.Errorf("%s: %v, want one error saying %q", id, diags, want)
		}
	}
	// An action of the configuration that plans with deploy = false: the
	// profile already references it, so the error says only to deploy it.
	id := create(mgmt.TriggerCustomTokenExchange, false)
	tenant.Planned.Manage(id)
	var diags diag.Diagnostics
	r.checkAction(ctx, id, &diags)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "Set deploy = true on the tenant_action") || strings.Contains(diags[0].Detail(), "reference it") {
		t.Errorf("an action of the configuration with deploy = false: %v", diags)
	}
}
