package tenantaction_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/tenantaction"
)

// TestMoveState_fromIncumbent takes over the incumbent's state of an action
// as it wrote it: blocks become objects, dependencies a map, and the
// secrets keep their values in the order of their names; arguments the
// incumbent lacks are left to the refresh.
func TestMoveState_fromIncumbent(t *testing.T) {
	ctx := context.Background()
	state, identity, moved, diags := acctest.MoveState(t, tenantaction.NewResource(), "registry.terraform.io/auth0/auth0", "auth0_action",
		`{"code": "exports.onExecuteCustomTokenExchange = async () => {};", "dependencies": [{"name": "jose", "version": "5.9.6"}],
		  "deploy": true, "id": "34305a21-453d-4fea-88ec-61c367edefb9", "modules": [], "name": "exchange", "runtime": "node22",
		  "secrets": [{"name": "SIGNING_KEY", "value": "zz"}, {"name": "API_KEY", "value": "aa"}], "secrets_wo": [],
		  "secrets_wo_version": null, "supported_triggers": [{"id": "custom-token-exchange", "version": "v1"}],
		  "timeouts": null, "version_id": "962a55b8-c378-4348-873d-8fb5b0652d60"}`)
	if diags.HasError() || !moved {
		t.Fatalf("moved %v: %v", moved, diags)
	}
	var secrets []struct {
		Name  string `tfsdk:"name"`
		Value string `tfsdk:"value"`
	}
	var deps map[string]struct {
		Version     types.String `tfsdk:"version"`
		RegistryURL types.String `tfsdk:"registry_url"`
	}
	var trigger struct {
		ID      string `tfsdk:"id"`
		Version string `tfsdk:"version"`
	}
	var deploy, forceDestroy types.Bool
	var version types.Int64
	for p, v := range map[string]any{"secrets": &secrets, "dependencies": &deps, "supported_triggers": &trigger,
		"deploy": &deploy, "force_destroy": &forceDestroy, "secrets_wo_version": &version} {
		if d := state.GetAttribute(ctx, path.Root(p), v); d.HasError() {
			t.Fatalf("%s: %v", p, d)
		}
	}
	if len(secrets) != 2 || secrets[0].Name != "API_KEY" || secrets[0].Value != "aa" || secrets[1].Name != "SIGNING_KEY" {
		t.Errorf("secrets %v, want both with their values in the order of their names", secrets)
	}
	if deps["jose"].Version.ValueString() != "5.9.6" || !deps["jose"].RegistryURL.IsNull() {
		t.Errorf("dependencies %v", deps)
	}
	if trigger.ID != "custom-token-exchange" || trigger.Version != "v1" {
		t.Errorf("supported_triggers %v", trigger)
	}
	if !deploy.ValueBool() || !forceDestroy.IsNull() || !version.IsNull() {
		t.Errorf("deploy %s, force_destroy %s (the refresh sets it), secrets_wo_version %s", deploy, forceDestroy, version)
	}
	var id types.String
	identity.GetAttribute(ctx, path.Root("id"), &id)
	if id.ValueString() != "34305a21-453d-4fea-88ec-61c367edefb9" {
		t.Errorf("identity %s", id)
	}
}

// TestMoveState_writeOnlySecretsAndModules: write-only secrets keep their
// version; modules, which this provider does not manage, are named in a
// warning.
func TestMoveState_writeOnlySecretsAndModules(t *testing.T) {
	state, _, moved, diags := acctest.MoveState(t, tenantaction.NewResource(), "registry.terraform.io/auth0/auth0", "auth0_action",
		`{"code": "x", "dependencies": [], "deploy": false, "id": "5d110643-a54e-432b-a0b7-e58bbf1fae77", "name": "login",
		  "modules": [{"module_id": "m1", "module_name": "shared-utils", "module_version_id": "v1", "module_version_number": 2}],
		  "runtime": "node22", "secrets": [], "secrets_wo": [], "secrets_wo_version": 3,
		  "supported_triggers": [{"id": "post-login", "version": "v3"}], "timeouts": null, "version_id": ""}`)
	if diags.HasError() || !moved {
		t.Fatalf("moved %v: %v", moved, diags)
	}
	var version types.Int64
	var secrets types.List
	var deploy types.Bool
	state.GetAttribute(context.Background(), path.Root("secrets_wo_version"), &version)
	state.GetAttribute(context.Background(), path.Root("secrets"), &secrets)
	state.GetAttribute(context.Background(), path.Root("deploy"), &deploy)
	if version.ValueInt64() != 3 || !secrets.IsNull() || !deploy.IsNull() {
		t.Errorf("secrets_wo_version %s, secrets %s, deploy %s (null: the refresh decides)", version, secrets, deploy)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "shared-utils") {
		t.Errorf("diagnostics %v, want a warning naming the module", diags)
	}
}
