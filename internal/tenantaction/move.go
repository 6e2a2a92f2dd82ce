package tenantaction

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

var _ resource.ResourceWithMoveState = (*actionResource)(nil)

// incumbentAction is the state of the incumbent's auth0_action. Its secrets
// hold their values (the incumbent keeps them in its state too).
type incumbentAction struct {
	ID                string `json:"id"`
	Name              string `json:"name"`
	Code              string `json:"code"`
	Runtime           string `json:"runtime"`
	Deploy            *bool  `json:"deploy"`
	SecretsWOVersion  *int64 `json:"secrets_wo_version"`
	SupportedTriggers []struct {
		ID      string `json:"id"`
		Version string `json:"version"`
	} `json:"supported_triggers"`
	Dependencies []struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"dependencies"`
	Secrets []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"secrets"`
	Modules []struct {
		ModuleName string `json:"module_name"`
	} `json:"modules"`
}

// MoveState takes over an auth0_action (a moved block). Blocks become
// objects and dependencies a map keyed by package; the secrets keep their
// values, in the order of their names; write-only secrets keep their
// version. The incumbent stores deploy = false when it is not set, so only
// true comes over: otherwise deploy is left to the refresh, which takes it
// as true, as an import does, and a plan shows a deploy only if the
// tenant's action has changes that are not deployed.
func (r *actionResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_action",
		func(ctx context.Context, src incumbentAction, resp *resource.MoveStateResponse) {
			set := func(name string, v any) {
				resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(name), v)...)
			}
			set("id", src.ID)
			set("name", src.Name)
			set("code", src.Code)
			set("runtime", framework.NonEmpty(src.Runtime))
			if len(src.SupportedTriggers) == 1 {
				t := src.SupportedTriggers[0]
				set("supported_triggers", types.ObjectValueMust(triggerType.AttrTypes, map[string]attr.Value{
					"id": types.StringValue(t.ID), "version": types.StringValue(t.Version),
				}))
			}
			if len(src.Dependencies) > 0 {
				deps := make(map[string]attr.Value, len(src.Dependencies))
				for _, d := range src.Dependencies {
					deps[d.Name] = types.ObjectValueMust(dependencyType.AttrTypes, map[string]attr.Value{
						"version": types.StringValue(d.Version), "registry_url": types.StringNull(),
					})
				}
				set("dependencies", types.MapValueMust(dependencyType, deps))
			}
			if len(src.Secrets) > 0 {
				sort.Slice(src.Secrets, func(i, j int) bool { return src.Secrets[i].Name < src.Secrets[j].Name })
				secrets := make([]attr.Value, 0, len(src.Secrets))
				for _, s := range src.Secrets {
					secrets = append(secrets, types.ObjectValueMust(secretType.AttrTypes, map[string]attr.Value{
						"name": types.StringValue(s.Name), "value": types.StringValue(s.Value),
					}))
				}
				set("secrets", types.ListValueMust(secretType, secrets))
			}
			set("secrets_wo_version", src.SecretsWOVersion)
			if src.Deploy != nil && *src.Deploy {
				set("deploy", true)
			}
			framework.SetIdentity(ctx, resp.TargetIdentity, framework.IDIdentity{ID: types.StringValue(src.ID)}, &resp.Diagnostics)
			if len(src.Modules) > 0 {
				names := make([]string, 0, len(src.Modules))
				for _, m := range src.Modules {
					names = append(names, m.ModuleName)
				}
				resp.Diagnostics.AddWarning("Action modules are not managed", fmt.Sprintf(
					"The action %q uses %d module(s) (%s), which %s does not manage: they stay in the tenant as they are, "+
						"and a change of the code does not change them.", src.ID, len(names), strings.Join(names, ", "), TypeName))
			}
		})}
}
