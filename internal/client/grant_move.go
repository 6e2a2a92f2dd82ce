package client

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ resource.ResourceWithMoveState = (*grantResource)(nil)

// incumbentGrant is the state of the incumbent's auth0_client_grant.
type incumbentGrant struct {
	ID                        string   `json:"id"`
	ClientID                  string   `json:"client_id"`
	Audience                  string   `json:"audience"`
	Scopes                    []string `json:"scopes"`
	AllowAllScopes            *bool    `json:"allow_all_scopes"`
	SubjectType               string   `json:"subject_type"`
	OrganizationUsage         string   `json:"organization_usage"`
	AllowAnyOrganization      *bool    `json:"allow_any_organization"`
	AuthorizationDetailsTypes []string `json:"authorization_details_types"`
	IsSystem                  bool     `json:"is_system"`
}

// MoveState takes over an auth0_client_grant (a moved block): the same
// fields, scopes in a set. The refresh that follows the move reads the
// tenant.
func (r *grantResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_client_grant",
		func(ctx context.Context, src incumbentGrant, resp *resource.MoveStateResponse) {
			scopes := src.Scopes
			if scopes == nil {
				scopes = []string{}
			}
			g := mgmt.ClientGrant{
				ID: src.ID, ClientID: src.ClientID, Audience: src.Audience, Scope: &scopes, AllowAllScopes: src.AllowAllScopes,
				SubjectType: framework.NonEmpty(src.SubjectType), OrganizationUsage: framework.NonEmpty(src.OrganizationUsage),
				AllowAnyOrganization: src.AllowAnyOrganization, AuthorizationDetailsTypes: nonEmptyList(src.AuthorizationDetailsTypes),
				IsSystem: src.IsSystem,
			}
			var m grantModel
			m.fromAPI(&g)
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, framework.IDIdentity{ID: types.StringValue(src.ID)}, &resp.Diagnostics)
		})}
}
