package tenantaction

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func trigger(id, version string) types.Object {
	return types.ObjectValueMust(triggerType.AttrTypes, map[string]attr.Value{"id": types.StringValue(id), "version": types.StringValue(version)})
}

func deps(pairs ...string) types.Map {
	if len(pairs) == 0 {
		return types.MapNull(dependencyType)
	}
	elems := map[string]attr.Value{}
	for i := 0; i < len(pairs); i += 2 {
		elems[pairs[i]] = types.ObjectValueMust(dependencyType.AttrTypes, map[string]attr.Value{
			"version": types.StringValue(pairs[i+1]), "registry_url": types.StringNull(),
		})
	}
	return types.MapValueMust(dependencyType, elems)
}

// secrets builds a secrets list from name, value pairs; the value "<null>" is a null value.
func secrets(pairs ...string) types.List {
	if len(pairs) == 0 {
		return types.ListNull(secretType)
	}
	var elems []attr.Value
	for i := 0; i < len(pairs); i += 2 {
		v := types.StringValue(pairs[i+1])
		if pairs[i+1] == "<null>" {
			v = types.StringNull()
		}
		elems = append(elems, types.ObjectValueMust(secretType.AttrTypes, map[string]attr.Value{"name": types.StringValue(pairs[i]), "value": v}))
	}
	return types.ListValueMust(secretType, elems)
}

func baseModel() actionModel {
	return actionModel{
		ID:                 types.StringValue("a1"),
		Name:               types.StringValue("n"),
		Code:               types.StringValue("code-1"),
		Runtime:            types.StringValue("node22"),
		Dependencies:       deps("jose", "5.9.6"),
		SupportedTriggers:  trigger("custom-token-exchange", "v1"),
		Secrets:            secrets("K", "v1"),
		SecretsWO:          types.ListNull(secretType),
		SecretsWOVersion:   types.Int64Null(),
		Deploy:             types.BoolValue(true),
		ForceDestroy:       types.BoolValue(false),
		Status:             types.StringValue("built"),
		VersionID:          types.StringValue("ver-1"),
		DeployedVersion:    types.Int64Value(1),
		AllChangesDeployed: types.BoolValue(true),
		CreatedAt:          types.StringValue("c"),
		UpdatedAt:          types.StringValue("u"),
	}
}

func body(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestActionModel_toCreate(t *testing.T) {
	ctx := context.Background()
	m := baseModel()
	got, diags := m.toCreate(ctx, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := `{"name":"n","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"code-1","runtime":"node22",` +
		`"dependencies":[{"name":"jose","version":"5.9.6"}],"secrets":[{"name":"K","value":"v1"}],"deploy":true}`
	if b := body(t, got); b != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	// Write-only secrets come from the configuration; deploy false is left out.
	m.Secrets, m.SecretsWOVersion, m.Deploy, m.Dependencies = types.ListNull(secretType), types.Int64Value(1), types.BoolValue(false), deps()
	got, _ = m.toCreate(ctx, []mgmt.ActionSecretValue{{Name: "W", Value: "wo"}})
	want = `{"name":"n","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"code-1","runtime":"node22",` +
		`"secrets":[{"name":"W","value":"wo"}]}`
	if b := body(t, got); b != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestActionModel_toUpdate(t *testing.T) {
	ctx := context.Background()
	state := baseModel()
	woState := baseModel()
	woState.Secrets, woState.SecretsWOVersion = types.ListNull(secretType), types.Int64Value(1)
	wo := []mgmt.ActionSecretValue{{Name: "W", Value: "rotated"}}
	for _, tc := range []struct {
		name  string
		state actionModel
		edit  func(*actionModel)
		wo    []mgmt.ActionSecretValue
		want  string
	}{
		{"nothing", state, func(*actionModel) {}, nil, `{}`},
		{"deploy and force_destroy send nothing", state, func(m *actionModel) {
			m.Deploy, m.ForceDestroy = types.BoolValue(false), types.BoolValue(true)
		}, nil, `{}`},
		// Secrets are left out: the stored values stay as they are.
		{"code only", state, func(m *actionModel) { m.Code = types.StringValue("code-2") }, nil, `{"code":"code-2"}`},
		{"name and runtime", state, func(m *actionModel) {
			m.Name, m.Runtime = types.StringValue("n2"), types.StringValue("node18")
		}, nil, `{"name":"n2","runtime":"node18"}`},
		{"trigger version", state, func(m *actionModel) { m.SupportedTriggers = trigger("custom-token-exchange", "v2") }, nil,
			`{"supported_triggers":[{"id":"custom-token-exchange","version":"v2"}]}`},
		{"dependency changed", state, func(m *actionModel) { m.Dependencies = deps("jose", "4.15.9") }, nil,
			`{"dependencies":[{"name":"jose","version":"4.15.9"}]}`},
		{"dependencies removed", state, func(m *actionModel) { m.Dependencies = deps() }, nil, `{"dependencies":[]}`},
		// The whole list, every value: the API replaces the stored list with it.
		{"secret added", state, func(m *actionModel) { m.Secrets = secrets("K", "v1", "L", "l1") }, nil,
			`{"secrets":[{"name":"K","value":"v1"},{"name":"L","value":"l1"}]}`},
		{"secret rotated", state, func(m *actionModel) { m.Secrets = secrets("K", "v2") }, nil, `{"secrets":[{"name":"K","value":"v2"}]}`},
		{"secrets removed", state, func(m *actionModel) { m.Secrets = secrets() }, nil, `{"secrets":[]}`},
		{"secrets to write-only", state, func(m *actionModel) {
			m.Secrets, m.SecretsWOVersion = secrets(), types.Int64Value(1)
		}, wo, `{"secrets":[{"name":"W","value":"rotated"}]}`},
		// Write-only values are in the configuration every time; only a new version sends them.
		{"write-only, same version", woState, func(*actionModel) {}, wo, `{}`},
		{"write-only, same version, code changed", woState, func(m *actionModel) { m.Code = types.StringValue("code-2") }, wo, `{"code":"code-2"}`},
		{"write-only, new version", woState, func(m *actionModel) { m.SecretsWOVersion = types.Int64Value(2) }, wo,
			`{"secrets":[{"name":"W","value":"rotated"}]}`},
		{"write-only removed", woState, func(m *actionModel) { m.SecretsWOVersion = types.Int64Null() }, nil, `{"secrets":[]}`},
		{"write-only to secrets", woState, func(m *actionModel) {
			m.Secrets, m.SecretsWOVersion = secrets("K", "v"), types.Int64Null()
		}, nil, `{"secrets":[{"name":"K","value":"v"}]}`},
	} {
		plan := tc.state
		tc.edit(&plan)
		u, diags := plan.toUpdate(ctx, tc.state, tc.wo)
		if diags.HasError() {
			t.Fatal(diags)
		}
		if got := body(t, u); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
		if u.IsEmpty() == plan.differs(tc.state) {
			t.Errorf("%s: differs %v but body %s", tc.name, plan.differs(tc.state), body(t, u))
		}
	}
}

func TestActionModel_fromAPI(t *testing.T) {
	ctx := context.Background()
	a := &mgmt.Action{
		ID: "a1", Name: "n", Code: "c", Runtime: "node18", Status: "built", AllChangesDeployed: true,
		SupportedTriggers: []mgmt.ActionTrigger{{ID: "custom-token-exchange", Version: "v1"}},
		Dependencies:      []mgmt.ActionDependency{{Name: "jose", Version: "5.9.6"}, {Name: "uuid", Version: "9.0.1", RegistryURL: "https://npm.example.com"}},
		Secrets:           []mgmt.ActionSecret{{Name: "K", UpdatedAt: "t"}, {Name: "OUTSIDE", UpdatedAt: "t"}},
		DeployedVersion:   &mgmt.ActionVersion{ID: "ver-3", Number: 3, Deployed: true},
		CreatedAt:         "c", UpdatedAt: "u",
	}
	m := baseModel()
	if d := m.fromAPI(ctx, a); d.HasError() {
		t.Fatal(d)
	}
	// Values come from the model for the names the tenant shows; a name
	// added outside Terraform has none.
	if !m.Secrets.Equal(secrets("K", "v1", "OUTSIDE", "<null>")) {
		t.Fatalf("secrets %s", m.Secrets)
	}
	if m.Runtime.ValueString() != "node18" || m.VersionID.ValueString() != "ver-3" || m.DeployedVersion.ValueInt64() != 3 || !m.AllChangesDeployed.ValueBool() {
		t.Fatalf("%+v", m)
	}
	if !strings.Contains(m.Dependencies.String(), `"registry_url":"https://npm.example.com"`) || !strings.Contains(m.Dependencies.String(), `"registry_url":<null>`) {
		t.Fatalf("dependencies %s", m.Dependencies)
	}
	if !m.SupportedTriggers.Equal(trigger("custom-token-exchange", "v1")) || !m.SecretsWO.IsNull() {
		t.Fatalf("%s %s", m.SupportedTriggers, m.SecretsWO)
	}
	// The configuration's order is kept whatever order the tenant lists them in.
	m = baseModel()
	m.Secrets = secrets("B", "b", "A", "a")
	m.fromAPI(ctx, &mgmt.Action{ID: "a1", Secrets: []mgmt.ActionSecret{{Name: "C"}, {Name: "A"}, {Name: "B"}}})
	if !m.Secrets.Equal(secrets("B", "b", "A", "a", "C", "<null>")) {
		t.Fatalf("secrets %s", m.Secrets)
	}
	// With write-only secrets, secrets stays null: no drift on them.
	m.SecretsWOVersion = types.Int64Value(1)
	m.fromAPI(ctx, a)
	if !m.Secrets.IsNull() {
		t.Fatalf("secrets %s", m.Secrets)
	}
	// Never deployed, no dependencies, no secrets: nulls, not empty sets.
	m = baseModel()
	m.fromAPI(ctx, &mgmt.Action{ID: "a1", Status: "pending", SupportedTriggers: a.SupportedTriggers})
	if !m.VersionID.IsNull() || !m.DeployedVersion.IsNull() || !m.Dependencies.IsNull() || !m.Secrets.IsNull() {
		t.Fatalf("%+v", m)
	}
	// The round trip: a create body from the model equals what was sent.
	m = baseModel()
	sent, _ := m.toCreate(ctx, nil)
	back := &mgmt.Action{
		ID: "a1", Name: sent.Name, Code: sent.Code, Runtime: sent.Runtime, SupportedTriggers: sent.SupportedTriggers,
		Dependencies: sent.Dependencies, Secrets: []mgmt.ActionSecret{{Name: "K"}}, Status: "built",
	}
	got := baseModel()
	got.fromAPI(ctx, back)
	if !got.Secrets.Equal(m.Secrets) || !got.Dependencies.Equal(m.Dependencies) || !got.SupportedTriggers.Equal(m.SupportedTriggers) || got.differs(m) {
		t.Fatalf("round trip: %+v", got)
	}
	if !mgmt.SameAction(sent, back) {
		t.Fatal("SameAction refuses the answer to its own create")
	}
}

func TestPlanComputed(t *testing.T) {
	for _, tc := range []struct {
		name     string
		edit     func(plan, state *actionModel)
		status   string // "" is unknown
		deployed string // "true", "false" or "" (unknown)
		version  bool   // version_id known (kept)
	}{
		{"nothing", func(_, _ *actionModel) {}, "built", "true", true},
		{"force_destroy only", func(p, _ *actionModel) { p.ForceDestroy = types.BoolValue(true) }, "built", "true", true},
		{"code, deploy", func(p, _ *actionModel) { p.Code = types.StringValue("x") }, "built", "true", false},
		{"code, no deploy", func(p, _ *actionModel) { p.Code, p.Deploy = types.StringValue("x"), types.BoolValue(false) }, "built", "", true},
		{"edited outside, not deployed", func(_, s *actionModel) { s.AllChangesDeployed = types.BoolValue(false) }, "built", "true", false},
		{"not deployed, deploy false", func(p, s *actionModel) {
			p.Deploy, s.AllChangesDeployed = types.BoolValue(false), types.BoolValue(false)
		}, "built", "false", true},
		{"still building", func(_, s *actionModel) { s.Status = types.StringValue("building") }, "built", "true", false},
		{"failed, deploy false", func(p, s *actionModel) {
			p.Deploy, s.Status, s.AllChangesDeployed = types.BoolValue(false), types.StringValue("failed"), types.BoolValue(false)
		}, "built", "false", true},
	} {
		plan, state := baseModel(), baseModel()
		tc.edit(&plan, &state)
		planComputed(&plan, state)
		if plan.Status.ValueString() != tc.status {
			t.Errorf("%s: status %s", tc.name, plan.Status)
		}
		if got := plan.AllChangesDeployed.String(); (tc.deployed == "" && !plan.AllChangesDeployed.IsUnknown()) || (tc.deployed != "" && got != tc.deployed) {
			t.Errorf("%s: all_changes_deployed %s", tc.name, got)
		}
		if plan.VersionID.IsUnknown() == tc.version {
			t.Errorf("%s: version_id %s", tc.name, plan.VersionID)
		}
	}
}
