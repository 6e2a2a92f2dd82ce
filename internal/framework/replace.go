package framework

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// replacesKey is the private state key that holds the id of the object a
// resource manages.
const replacesKey = "replaces"

type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// MarkManaged records the id of the object a resource manages in its
// private data: in its create, its read and its plan with state. Terraform
// plans a replacement (a changed attribute that requires it, -replace, a
// tainted object) as a create that gets this private data: see Replaces.
func MarkManaged(ctx context.Context, private privateSetter, id string) diag.Diagnostics {
	value, err := json.Marshal(id)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Unable to plan resource", "Encoding the private data of the plan failed: "+err.Error()+
			"\n\nThis is a bug in the provider; please report it.")
		return diags
	}
	return private.SetKey(ctx, replacesKey, value)
}

// Replaces returns, in the plan of a resource without state, the id of the
// object this plan replaces, as MarkManaged recorded it; a new instance gets
// "". The create of a replacement must not take the natural key of the
// object it replaces (its name, identifier) for another object's.
func Replaces(ctx context.Context, private privateGetter) string {
	value, diags := private.GetKey(ctx, replacesKey)
	var id string
	if diags.HasError() || len(value) == 0 || json.Unmarshal(value, &id) != nil {
		return ""
	}
	return id
}
