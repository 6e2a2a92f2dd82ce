package phoneprovider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ resource.ResourceWithMoveState = (*providerResource)(nil)

// incumbentProvider is the state of the incumbent's auth0_phone_provider:
// configuration and credentials are blocks (lists of one), and the auth
// token is kept in the state.
type incumbentProvider struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Disabled      bool   `json:"disabled"`
	Tenant        string `json:"tenant"`
	Channel       string `json:"channel"`
	Configuration []struct {
		DeliveryMethods []string `json:"delivery_methods"`
		SID             string   `json:"sid"`
		DefaultFrom     string   `json:"default_from"`
		MSSID           string   `json:"mssid"`
	} `json:"configuration"`
}

// MoveState takes over an auth0_phone_provider (a moved block). The auth
// token is not carried over: this resource keeps credentials write-only,
// and, as after an import, credentials_wo_version of a Twilio provider is 0
// so that the configuration writes the token without sending it again. The
// timestamps are read by the refresh that follows.
func (r *providerResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_phone_provider",
		func(ctx context.Context, src incumbentProvider, resp *resource.MoveStateResponse) {
			p := &mgmt.PhoneProvider{ID: src.ID, Name: src.Name, Disabled: src.Disabled, Tenant: src.Tenant, Channel: src.Channel}
			if len(src.Configuration) == 1 {
				c := src.Configuration[0]
				p.Configuration = &mgmt.PhoneConfiguration{SID: c.SID, DefaultFrom: c.DefaultFrom, MSSID: c.MSSID, DeliveryMethods: c.DeliveryMethods}
			}
			m := takenOver(src.Name)
			resp.Diagnostics.Append(m.fromAPI(ctx, p)...)
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
		})}
}
