package trigger

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ resource.ResourceWithMoveState = (*bindingsResource)(nil)

// incumbentBindings is the state of the incumbent's auth0_trigger_actions:
// its id is the trigger, and its actions are blocks of id and display_name.
type incumbentBindings struct {
	ID      string `json:"id"`
	Trigger string `json:"trigger"`
	Actions []struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"actions"`
}

// MoveState takes over an auth0_trigger_actions (a moved block): the same
// trigger and actions, in the same order. The refresh that follows reads
// the tenant.
func (r *bindingsResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_trigger_actions",
		func(ctx context.Context, src incumbentBindings, resp *resource.MoveStateResponse) {
			trigger := src.Trigger
			if trigger == "" {
				trigger = src.ID
			}
			bindings := make([]mgmt.TriggerBinding, 0, len(src.Actions))
			for _, a := range src.Actions {
				bindings = append(bindings, mgmt.TriggerBinding{DisplayName: a.DisplayName, Action: mgmt.Action{ID: a.ID}})
			}
			var m bindingsModel
			resp.Diagnostics.Append(m.fromAPI(ctx, trigger, bindings)...)
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, framework.IDIdentity{ID: types.StringValue(trigger)}, &resp.Diagnostics)
		})}
}
