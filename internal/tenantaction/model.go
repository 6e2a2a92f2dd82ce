package tenantaction

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

type actionModel struct {
	ID                 types.String   `tfsdk:"id"`
	Name               types.String   `tfsdk:"name"`
	Code               types.String   `tfsdk:"code"`
	Runtime            types.String   `tfsdk:"runtime"`
	Dependencies       types.Map      `tfsdk:"dependencies"`
	SupportedTriggers  types.Object   `tfsdk:"supported_triggers"`
	Secrets            types.List     `tfsdk:"secrets"`
	SecretsWO          types.List     `tfsdk:"secrets_wo"`
	SecretsWOVersion   types.Int64    `tfsdk:"secrets_wo_version"`
	Deploy             types.Bool     `tfsdk:"deploy"`
	ForceDestroy       types.Bool     `tfsdk:"force_destroy"`
	SkipProfileCheck   types.Bool     `tfsdk:"skip_profile_check"`
	Status             types.String   `tfsdk:"status"`
	VersionID          types.String   `tfsdk:"version_id"`
	DeployedVersion    types.Int64    `tfsdk:"deployed_version"`
	AllChangesDeployed types.Bool     `tfsdk:"all_changes_deployed"`
	CreatedAt          types.String   `tfsdk:"created_at"`
	UpdatedAt          types.String   `tfsdk:"updated_at"`
	Timeouts           timeouts.Value `tfsdk:"timeouts"`
}

type triggerModel struct {
	ID      types.String `tfsdk:"id"`
	Version types.String `tfsdk:"version"`
}

type dependencyModel struct {
	Version     types.String `tfsdk:"version"`
	RegistryURL types.String `tfsdk:"registry_url"`
}

type secretModel struct {
	Name  types.String `tfsdk:"name"`
	Value types.String `tfsdk:"value"`
}

var (
	triggerType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"id":      types.StringType,
		"version": types.StringType,
	}}
	dependencyType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"version":      types.StringType,
		"registry_url": types.StringType,
	}}
	secretType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"name":  types.StringType,
		"value": types.StringType,
	}}
)

// toCreate builds the POST body from the plan. The secrets are the plan's
// (secrets) or the configuration's write-only ones (wo), whichever is set.
// With deploy, the tenant deploys the action as soon as its first build
// succeeds (reference §2: create-and-deploy in one call).
func (m actionModel) toCreate(ctx context.Context, wo []mgmt.ActionSecretValue) (mgmt.ActionCreate, diag.Diagnostics) {
	var diags diag.Diagnostics
	triggers, d := m.triggers(ctx)
	diags.Append(d...)
	deps, d := m.dependencies(ctx)
	diags.Append(d...)
	secrets, d := m.secrets(ctx)
	diags.Append(d...)
	if m.Secrets.IsNull() {
		secrets = wo
	}
	return mgmt.ActionCreate{
		Name:              m.Name.ValueString(),
		SupportedTriggers: triggers,
		Code:              m.Code.ValueString(),
		Runtime:           m.Runtime.ValueString(),
		Dependencies:      deps,
		Secrets:           secrets,
		Deploy:            m.Deploy.ValueBool(),
	}, diags
}

// toUpdate builds the PATCH body: only what differs from the state. The
// API replaces the whole secrets list with the one sent (an item without a
// value keeps its stored value, a name left out is deleted), so secrets are
// sent only when they are to change, and then whole, every value included:
//   - secrets set: when the set differs from the state;
//   - secrets_wo set (wo): when secrets_wo_version differs from the state's;
//   - neither: an empty list, when the state shows secrets, or write-only
//     secrets sent before (removing the arguments removes the secrets).
//
// A change of code, runtime or anything else never sends secrets, so it
// cannot wipe one.
func (m actionModel) toUpdate(ctx context.Context, state actionModel, wo []mgmt.ActionSecretValue) (mgmt.ActionUpdate, diag.Diagnostics) {
	var u mgmt.ActionUpdate
	var diags diag.Diagnostics
	if !m.Name.Equal(state.Name) {
		u.Name = mgmt.Set(m.Name.ValueString())
	}
	if !m.Code.Equal(state.Code) {
		u.Code = mgmt.Set(m.Code.ValueString())
	}
	if !m.Runtime.Equal(state.Runtime) {
		u.Runtime = mgmt.Set(m.Runtime.ValueString())
	}
	if !m.SupportedTriggers.Equal(state.SupportedTriggers) {
		triggers, d := m.triggers(ctx)
		diags.Append(d...)
		u.SupportedTriggers = mgmt.Set(triggers)
	}
	if !m.Dependencies.Equal(state.Dependencies) {
		deps, d := m.dependencies(ctx)
		diags.Append(d...)
		u.Dependencies = mgmt.Set(deps)
	}
	switch {
	case !m.Secrets.IsNull():
		if !m.Secrets.Equal(state.Secrets) {
			secrets, d := m.secrets(ctx)
			diags.Append(d...)
			u.Secrets = mgmt.Set(secrets)
		}
	case wo != nil:
		if !m.SecretsWOVersion.Equal(state.SecretsWOVersion) {
			u.Secrets = mgmt.Set(wo)
		}
	case len(state.Secrets.Elements()) > 0 || !state.SecretsWOVersion.IsNull():
		u.Secrets = mgmt.Set([]mgmt.ActionSecretValue{})
	}
	return u, diags
}

// differs reports whether the plan asks the tenant to change the action,
// which then builds it again.
func (m actionModel) differs(state actionModel) bool {
	return !m.Name.Equal(state.Name) ||
		!m.Code.Equal(state.Code) ||
		!m.Runtime.Equal(state.Runtime) ||
		!m.SupportedTriggers.Equal(state.SupportedTriggers) ||
		!m.Dependencies.Equal(state.Dependencies) ||
		!m.Secrets.Equal(state.Secrets) ||
		!m.SecretsWOVersion.Equal(state.SecretsWOVersion)
}

// adoptSecrets sets secrets_wo_version to 0 for an action that is imported
// with secrets. The tenant never returns their values (reference §2), so a
// configuration can only give them as write-only secrets_wo: with
// secrets_wo_version = 0 in it too, the first plan after the import shows no
// change and the apply sends nothing (the tenant keeps its values, and the
// action is not built and deployed again); a later change of
// secrets_wo_version sends them.
func adoptSecrets(m *actionModel, a *mgmt.Action) {
	if len(a.Secrets) > 0 && m.Secrets.IsNull() && m.SecretsWOVersion.IsNull() {
		m.SecretsWOVersion = types.Int64Value(0)
	}
}

// trigger is the id of the trigger the action supports ("" when unknown).
func (m actionModel) trigger() string {
	if !flex.IsSet(m.SupportedTriggers) {
		return ""
	}
	id, _ := m.SupportedTriggers.Attributes()["id"].(types.String)
	return id.ValueString()
}

func (m actionModel) triggers(ctx context.Context) ([]mgmt.ActionTrigger, diag.Diagnostics) {
	if !flex.IsSet(m.SupportedTriggers) {
		return []mgmt.ActionTrigger{}, nil
	}
	var t triggerModel
	diags := m.SupportedTriggers.As(ctx, &t, basetypes.ObjectAsOptions{})
	return []mgmt.ActionTrigger{{ID: t.ID.ValueString(), Version: t.Version.ValueString()}}, diags
}

// dependencies is never nil: an empty list is what clears them. They go in
// the order of their names (a map has none).
func (m actionModel) dependencies(ctx context.Context) ([]mgmt.ActionDependency, diag.Diagnostics) {
	out := []mgmt.ActionDependency{}
	if !flex.IsSet(m.Dependencies) {
		return out, nil
	}
	items := map[string]dependencyModel{}
	diags := m.Dependencies.ElementsAs(ctx, &items, false)
	for _, name := range slices.Sorted(maps.Keys(items)) {
		d := items[name]
		out = append(out, mgmt.ActionDependency{Name: name, Version: d.Version.ValueString(), RegistryURL: d.RegistryURL.ValueString()})
	}
	return out, diags
}

// secrets is never nil: an empty list is what clears them.
func (m actionModel) secrets(ctx context.Context) ([]mgmt.ActionSecretValue, diag.Diagnostics) {
	if !flex.IsSet(m.Secrets) {
		return []mgmt.ActionSecretValue{}, nil
	}
	var items []secretModel
	diags := m.Secrets.ElementsAs(ctx, &items, false)
	return secretValues(items), diags
}

// writeOnlySecrets reads secrets_wo from the configuration (the plan and
// the state never hold it); nil when it is not set.
func writeOnlySecrets(ctx context.Context, list types.List) ([]mgmt.ActionSecretValue, diag.Diagnostics) {
	if !flex.IsSet(list) {
		return nil, nil
	}
	var items []secretModel
	diags := list.ElementsAs(ctx, &items, false)
	return secretValues(items), diags
}

func secretValues(items []secretModel) []mgmt.ActionSecretValue {
	out := make([]mgmt.ActionSecretValue, 0, len(items))
	for _, s := range items {
		out = append(out, mgmt.ActionSecretValue{Name: s.Name.ValueString(), Value: s.Value.ValueString()})
	}
	return out
}

// secretsFrom is the secrets list for the names the tenant shows. Values
// are the model's for the names it holds; a name it lacks gets a null value.
// The order is the model's (the configuration's), then the names it lacks,
// so a tenant that lists secrets in another order shows no drift.
func (m actionModel) secretsFrom(ctx context.Context, shown []mgmt.ActionSecret, diags *diag.Diagnostics) types.List {
	if len(shown) == 0 || !m.SecretsWOVersion.IsNull() {
		return types.ListNull(secretType)
	}
	var held []secretModel
	if flex.IsSet(m.Secrets) {
		diags.Append(m.Secrets.ElementsAs(ctx, &held, false)...)
	}
	remaining := make(map[string]bool, len(shown))
	for _, s := range shown {
		remaining[s.Name] = true
	}
	elems := make([]attr.Value, 0, len(shown))
	add := func(name string, value types.String) {
		elems = append(elems, types.ObjectValueMust(secretType.AttrTypes, map[string]attr.Value{
			"name":  types.StringValue(name),
			"value": value,
		}))
		delete(remaining, name)
	}
	for _, s := range held {
		if remaining[s.Name.ValueString()] {
			add(s.Name.ValueString(), s.Value)
		}
	}
	for _, s := range shown {
		if remaining[s.Name] {
			add(s.Name, types.StringNull())
		}
	}
	list, d := types.ListValue(secretType, elems)
	diags.Append(d...)
	return list
}

// fromAPI sets the model from the action the tenant shows. The API never
// shows a secret's value (reference §2), so secrets keep the values the
// model held (the plan's, or the prior state's) for the names the tenant
// shows, and a name the tenant shows that the model lacks gets a null
// value: drift is seen on names only. With write-only secrets
// (secrets_wo_version set) secrets stays null: they are tracked by version.
func (m *actionModel) fromAPI(ctx context.Context, a *mgmt.Action) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(a.ID)
	m.Name = types.StringValue(a.Name)
	m.Code = types.StringValue(a.Code)
	m.Runtime = types.StringValue(a.Runtime)
	m.Status = types.StringValue(a.Status)
	m.AllChangesDeployed = types.BoolValue(a.AllChangesDeployed)
	m.CreatedAt = types.StringValue(a.CreatedAt)
	m.UpdatedAt = types.StringValue(a.UpdatedAt)
	m.VersionID, m.DeployedVersion = types.StringNull(), types.Int64Null()
	if v := a.DeployedVersion; v != nil {
		m.VersionID, m.DeployedVersion = types.StringValue(v.ID), types.Int64Value(v.Number)
	}
	m.SupportedTriggers = types.ObjectNull(triggerType.AttrTypes)
	if len(a.SupportedTriggers) > 0 {
		// Exactly one trigger is used (reference §2).
		t := a.SupportedTriggers[0]
		m.SupportedTriggers = types.ObjectValueMust(triggerType.AttrTypes, map[string]attr.Value{
			"id":      types.StringValue(t.ID),
			"version": types.StringValue(t.Version),
		})
	}
	m.Dependencies = types.MapNull(dependencyType)
	if len(a.Dependencies) > 0 {
		elems := make(map[string]attr.Value, len(a.Dependencies))
		for _, d := range a.Dependencies {
			registry := types.StringNull()
			if d.RegistryURL != "" {
				registry = types.StringValue(d.RegistryURL)
			}
			elems[d.Name] = types.ObjectValueMust(dependencyType.AttrTypes, map[string]attr.Value{
				"version":      types.StringValue(d.Version),
				"registry_url": registry,
			})
		}
		deps, d := types.MapValue(dependencyType, elems)
		diags.Append(d...)
		m.Dependencies = deps
	}
	m.Secrets = m.secretsFrom(ctx, a.Secrets, &diags)
	// Write-only values are never stored.
	m.SecretsWO = types.ListNull(secretType)
	return diags
}
