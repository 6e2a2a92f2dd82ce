package acctest

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// MoveState runs r's state movers on the state of a resource of
// sourceType from provider (an address such as
// registry.terraform.io/auth0/auth0) at schema version 0, given as JSON,
// as Terraform does for a moved block. It returns the target state and
// identity, and the diagnostics; moved is false when no mover took the
// source.
func MoveState(t *testing.T, r resource.Resource, provider, sourceType, stateJSON string) (state tfsdk.State, identity *tfsdk.ResourceIdentity, moved bool, diags diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	var ir resource.IdentitySchemaResponse
	if ri, ok := r.(resource.ResourceWithIdentity); ok {
		ri.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &ir)
	}
	null := tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)
	for _, m := range r.(resource.ResourceWithMoveState).MoveState(ctx) {
		resp := resource.MoveStateResponse{TargetState: tfsdk.State{Schema: sr.Schema, Raw: null}}
		if ri := ir.IdentitySchema; len(ri.Attributes) > 0 {
			resp.TargetIdentity = &tfsdk.ResourceIdentity{Schema: ri, Raw: tftypes.NewValue(ri.Type().TerraformType(ctx), nil)}
		}
		m.StateMover(ctx, resource.MoveStateRequest{
			SourceProviderAddress: provider,
			SourceTypeName:        sourceType,
			SourceRawState:        &tfprotov6.RawState{JSON: []byte(stateJSON)},
		}, &resp)
		diags.Append(resp.Diagnostics...)
		if diags.HasError() || !resp.TargetState.Raw.Equal(null) {
			return resp.TargetState, resp.TargetIdentity, !resp.TargetState.Raw.Equal(null), diags
		}
	}
	return tfsdk.State{}, nil, false, diags
}
