package role

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func pairsModel(t *testing.T, names ...string) permissionsExclusiveModel {
	t.Helper()
	var m permissionsExclusiveModel
	pairs := make([]mgmt.Permission, len(names))
	for i, n := range names {
		pairs[i] = mgmt.Permission{ResourceServerIdentifier: "https://a", PermissionName: n}
	}
	if d := m.fromPairs("rol_1", pairs); d.HasError() {
		t.Fatal(d)
	}
	return m
}

func modifyPlan(t *testing.T, state, plan *permissionsExclusiveModel) string {
	t.Helper()
	ctx := context.Background()
	var sr resource.SchemaResponse
	NewPermissionsExclusiveResource().Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx)
	req := resource.ModifyPlanRequest{
		State: tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)},
		Plan:  tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)},
	}
	if state != nil {
		if d := req.State.Set(ctx, state); d.HasError() {
			t.Fatal(d)
		}
	}
	if plan != nil {
		if d := req.Plan.Set(ctx, plan); d.HasError() {
			t.Fatal(d)
		}
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	res := &permissionsExclusiveResource{}
	res.Tenant = conns.Unconfigured()
	res.ModifyPlan(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	var out []string
	for _, d := range resp.Diagnostics.Warnings() {
		out = append(out, d.Summary()+": "+d.Detail())
	}
	return strings.Join(out, "\n")
}

func TestModifyPlan_warnsWhatItRemoves(t *testing.T) {
	state := pairsModel(t, "a", "b", "c")
	keep := pairsModel(t, "a", "d")
	if got := modifyPlan(t, &state, &keep); !strings.Contains(got, "removes 2 permission(s) from role \"rol_1\": b on https://a, c on https://a.") {
		t.Fatalf("update: %q", got)
	}
	if got := modifyPlan(t, &state, nil); !strings.Contains(got, "removes its 3 permission(s)") {
		t.Fatalf("destroy: %q", got)
	}
	more := pairsModel(t, "a", "b", "c", "d")
	if got := modifyPlan(t, &state, &more); got != "" {
		t.Fatalf("only additions warn: %q", got)
	}
	// A create reads the role to say what it would remove; with no tenant
	// to read (an unconfigured provider) it warns nothing and leaves that
	// to the apply (TestAccRolePermissions_createWarnsAtPlan reads a tenant).
	if got := modifyPlan(t, nil, &more); got != "" {
		t.Fatalf("a create with an unconfigured provider warned: %q", got)
	}
}

// TestModifyPlan_unknownNamesWarnNothing: names known only after apply (from
// another resource) are not taken for removals.
func TestModifyPlan_unknownNamesWarnNothing(t *testing.T) {
	state := pairsModel(t, "a", "b")
	for name, elems := range map[string]map[string]attr.Value{
		"one API's names unknown": {"https://a": framework.UnorderedListOf(types.ListUnknown(types.StringType))},
		"one name unknown": {"https://a": framework.UnorderedListOf(types.ListValueMust(types.StringType, []attr.Value{
			types.StringValue("a"), types.StringUnknown(),
		}))},
	} {
		plan := state
		plan.Permissions = types.MapValueMust(permissionNamesType, elems)
		if got := modifyPlan(t, &state, &plan); got != "" {
			t.Errorf("%s: %q", name, got)
		}
	}
}

func TestListPairs_showsTwentyAndCounts(t *testing.T) {
	pairs := make([]mgmt.Permission, 25)
	for i := range pairs {
		pairs[i] = mgmt.Permission{ResourceServerIdentifier: "https://a", PermissionName: "p"}
	}
	if got := listPairs(pairs); strings.Count(got, "p on https://a") != 20 || !strings.HasSuffix(got, " and 5 more") {
		t.Fatalf("%q", got)
	}
}

// A pair whose scope the configuration's API will not define is a warning:
// whether the tenant refuses such a permission is not known (reference §3,
// §8).
func TestCheckPairs_undefinedScopeWarns(t *testing.T) {
	tenant := conns.Unconfigured()
	tenant.Planned.DefineScopes("https://a", []string{"read"})
	var diags diag.Diagnostics
	checkPairs(context.Background(), tenant, "rol_1", []mgmt.Permission{{ResourceServerIdentifier: "https://a", PermissionName: "write"}}, path.Root("permissions"), &diags)
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning || !strings.Contains(diags[0].Detail(), `will not define "write"`) {
		t.Fatalf("%v, want one warning", diags)
	}
}
