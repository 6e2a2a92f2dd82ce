package trigger

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// bindingsModel is a trigger's bound actions.
type bindingsModel struct {
	ID      types.String `tfsdk:"id"`
	Trigger types.String `tfsdk:"trigger"`
	Actions types.List   `tfsdk:"actions"`
}

// boundAction is one item of actions.
type boundAction struct {
	ID          types.String `tfsdk:"id"`
	DisplayName types.String `tfsdk:"display_name"`
}

var boundActionType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"id":           types.StringType,
	"display_name": types.StringType,
}}

// fromAPI sets the model from the trigger's bindings, in their order.
func (m *bindingsModel) fromAPI(ctx context.Context, trigger string, bindings []mgmt.TriggerBinding) diag.Diagnostics {
	m.ID, m.Trigger = types.StringValue(trigger), types.StringValue(trigger)
	items := make([]boundAction, 0, len(bindings))
	for _, b := range bindings {
		items = append(items, boundAction{ID: types.StringValue(b.Action.ID), DisplayName: types.StringValue(b.DisplayName)})
	}
	list, diags := types.ListValueFrom(ctx, boundActionType, items)
	m.Actions = list
	return diags
}

// items are the model's actions (none when the list is null or unknown).
func (m bindingsModel) items(ctx context.Context) ([]boundAction, diag.Diagnostics) {
	if m.Actions.IsNull() || m.Actions.IsUnknown() {
		return nil, nil
	}
	var items []boundAction
	diags := m.Actions.ElementsAs(ctx, &items, false)
	return items, diags
}

// toAPI is the PATCH body: every action by id, in order.
func (m bindingsModel) toAPI(ctx context.Context) ([]mgmt.BindingUpdate, diag.Diagnostics) {
	items, diags := m.items(ctx)
	out := make([]mgmt.BindingUpdate, 0, len(items))
	for _, a := range items {
		out = append(out, mgmt.BindingUpdate{
			Ref:         mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: a.ID.ValueString()},
			DisplayName: a.DisplayName.ValueString(),
		})
	}
	return out, diags
}

// planned is what the model binds, as far as it is known at plan.
func (m bindingsModel) planned(ctx context.Context) (conns.PlannedBindings, diag.Diagnostics) {
	if m.Actions.IsUnknown() {
		return conns.PlannedBindings{}, nil
	}
	items, diags := m.items(ctx)
	p := conns.PlannedBindings{Complete: true}
	for _, a := range items {
		if a.ID.IsUnknown() {
			p.Complete = false
			continue
		}
		p.IDs = append(p.IDs, a.ID.ValueString())
	}
	return p, diags
}
