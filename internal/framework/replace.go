package framework

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// managedKey is the private data key that holds the id of the object a
// resource's plan manages.
const managedKey = "replaces"

// ManagedID returns, in ModifyPlan, the id of the object the planned
// resource manages: from the state (then also recorded in the plan's
// private data), or, in the plan of a resource without state, from the
// private data alone. Terraform plans a replacement (an attribute that
// requires it, -replace) as an update first and then as a create, handing
// the create the update's private data; a new instance, and the create of a
// tainted object, get "". The create of a replacement must not take the
// natural key of the object it replaces (its name, identifier) for another
// object's.
func ManagedID(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) string {
	if req.State.Raw.IsNull() {
		value, diags := req.Private.GetKey(ctx, managedKey)
		var id string
		if diags.HasError() || len(value) == 0 || json.Unmarshal(value, &id) != nil {
			return ""
		}
		return id
	}
	var id types.String
	if resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...); resp.Diagnostics.HasError() {
		return ""
	}
	value, _ := json.Marshal(id.ValueString()) // a string always encodes
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, managedKey, value)...)
	return id.ValueString()
}
