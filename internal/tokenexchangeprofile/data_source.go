package tokenexchangeprofile

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

var (
	_ datasource.DataSource                     = (*profileDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*profileDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*profileDataSource)(nil)
)

// NewDataSource returns the tenant_token_exchange_profile data source.
func NewDataSource() datasource.DataSource { return &profileDataSource{} }

type profileDataSource struct {
	framework.DataSourceWithTenant
}

func (d *profileDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (d *profileDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	var r resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &r)
	resp.Schema = framework.DataSourceFrom{
		Description: "Looks up a token exchange profile by `id` or by `subject_token_type` (exactly one). **Early Access.**",
		Keys: map[string]framework.LookupKey{
			"id": {
				Description: "The profile's ID. Set this or `subject_token_type`.",
				Validators:  []validator.String{validate.ID()},
			},
			"subject_token_type": {Description: "The profile's subject token type URI. Set this or `id`."},
		},
	}.Schema(r.Schema)
}

func (d *profileDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("subject_token_type"))}
}

func (d *profileDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m profileModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	var (
		p    *mgmt.TokenExchangeProfile
		err  error
		what string
	)
	if !m.ID.IsNull() {
		what = fmt.Sprintf("id %q", m.ID.ValueString())
		p, err = d.Tenant.API.GetTokenExchangeProfile(ctx, m.ID.ValueString())
		if mgmt.IsNotFound(err) {
			p, err = nil, nil
		}
	} else {
		what = fmt.Sprintf("subject_token_type %q", m.SubjectTokenType.ValueString())
		p, err = d.Tenant.API.FindTokenExchangeProfile(ctx, m.SubjectTokenType.ValueString())
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read token exchange profile", framework.APIErrorDetail("Looking up the profile with "+what, err))
		return
	}
	if p == nil {
		resp.Diagnostics.AddError("Unable to find token exchange profile", fmt.Sprintf("No token exchange profile has %s in the tenant.", what))
		return
	}
	m.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
