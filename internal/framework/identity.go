package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// IDIdentity is the identity of a resource an id names alone.
type IDIdentity struct {
	ID types.String `tfsdk:"id"`
}

// IDIdentitySchema is the identity schema of IDIdentity; description says
// what the id is.
func IDIdentitySchema(description string) identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				Description:       description,
				RequiredForImport: true,
			},
		},
	}
}

// SetIdentity stores v as the resource's identity. identity is nil when
// Terraform does not support identities (before 1.12): nothing to do then.
func SetIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, v any, diags *diag.Diagnostics) {
	if identity == nil {
		return
	}
	diags.Append(identity.Set(ctx, v)...)
}

// ImportID is what an import names: the import ID of `terraform import` or
// an import block's id, else the identity's id attribute (an import block
// with identity, Terraform 1.12+).
func ImportID(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	if req.ID != "" || req.Identity == nil {
		return req.ID
	}
	var id types.String
	diags.Append(req.Identity.GetAttribute(ctx, path.Root("id"), &id)...)
	return id.ValueString()
}
