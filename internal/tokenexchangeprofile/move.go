package tokenexchangeprofile

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
)

var _ resource.ResourceWithMoveState = (*profileResource)(nil)

// incumbentProfile is the state of the incumbent's
// auth0_token_exchange_profile.
type incumbentProfile struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	SubjectTokenType string `json:"subject_token_type"`
	ActionID         string `json:"action_id"`
	Type             string `json:"type"`
}

// MoveState takes over an auth0_token_exchange_profile (a moved block):
// the same object under the same attribute names. The timestamps are read
// by the refresh that follows.
func (r *profileResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_token_exchange_profile",
		func(ctx context.Context, src incumbentProfile, resp *resource.MoveStateResponse) {
			m := profileModel{
				ID:               types.StringValue(src.ID),
				Name:             types.StringValue(src.Name),
				SubjectTokenType: flex.NullIfEmpty(src.SubjectTokenType),
				ActionID:         flex.NullIfEmpty(src.ActionID),
				Type:             flex.NullIfEmpty(src.Type),
			}
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
		})}
}
