package tokenexchangeprofile

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

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
