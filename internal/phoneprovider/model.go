package phoneprovider

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// providerModel is the provider as the tenant shows it: the data source's
// model, and the resource's but for the write-only credentials.
type providerModel struct {
	ID            types.String `tfsdk:"id"`
	Name          types.String `tfsdk:"name"`
	Disabled      types.Bool   `tfsdk:"disabled"`
	Configuration types.Object `tfsdk:"configuration"`
	Tenant        types.String `tfsdk:"tenant"`
	Channel       types.String `tfsdk:"channel"`
	CreatedAt     types.String `tfsdk:"created_at"`
	UpdatedAt     types.String `tfsdk:"updated_at"`
}

// resourceModel is the resource's model.
type resourceModel struct {
	providerModel
	CredentialsWO        types.Object `tfsdk:"credentials_wo"`
	CredentialsWOVersion types.Int64  `tfsdk:"credentials_wo_version"`
}

// takenOver is the model of a provider this resource takes over (an
// import's, a move's, a list result's): the credentials are unknown to it,
// and credentials_wo_version is importedVersion's.
func takenOver(name string) resourceModel {
	return resourceModel{CredentialsWO: types.ObjectNull(credentialsType.AttrTypes), CredentialsWOVersion: importedVersion(name)}
}

type configurationModel struct {
	DeliveryMethods types.Set    `tfsdk:"delivery_methods"`
	SID             types.String `tfsdk:"sid"`
	DefaultFrom     types.String `tfsdk:"default_from"`
	MSSID           types.String `tfsdk:"mssid"`
}

type credentialsModel struct {
	AuthToken types.String `tfsdk:"auth_token"`
}

var (
	configurationType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"delivery_methods": types.SetType{ElemType: types.StringType},
		"sid":              types.StringType,
		"default_from":     types.StringType,
		"mssid":            types.StringType,
	}}
	credentialsType = types.ObjectType{AttrTypes: map[string]attr.Type{"auth_token": types.StringType}}
)

// fromAPI sets the model from the tenant's answer.
func (m *providerModel) fromAPI(ctx context.Context, p *mgmt.PhoneProvider) diag.Diagnostics {
	m.ID = types.StringValue(p.ID)
	m.Name = types.StringValue(p.Name)
	m.Disabled = types.BoolValue(p.Disabled)
	m.Tenant = types.StringValue(p.Tenant)
	m.Channel = types.StringValue(p.Channel)
	m.CreatedAt = types.StringValue(p.CreatedAt)
	m.UpdatedAt = types.StringValue(p.UpdatedAt)
	cfg := mgmt.PhoneConfiguration{}
	if p.Configuration != nil {
		cfg = *p.Configuration
	}
	methods, diags := types.SetValueFrom(ctx, types.StringType, cfg.DeliveryMethods)
	obj, d := types.ObjectValueFrom(ctx, configurationType.AttrTypes, configurationModel{
		DeliveryMethods: methods,
		SID:             flex.NullIfEmpty(cfg.SID),
		DefaultFrom:     flex.NullIfEmpty(cfg.DefaultFrom),
		MSSID:           flex.NullIfEmpty(cfg.MSSID),
	})
	m.Configuration = obj
	return append(diags, d...)
}

// configuration is the model's configuration as the API takes it, its
// delivery methods sorted.
func (m providerModel) configuration(ctx context.Context) (mgmt.PhoneConfiguration, diag.Diagnostics) {
	var diags diag.Diagnostics
	c, ok := flex.ObjectAs[configurationModel](ctx, m.Configuration, &diags)
	if !ok {
		return mgmt.PhoneConfiguration{}, nil
	}
	var methods []string
	diags.Append(c.DeliveryMethods.ElementsAs(ctx, &methods, false)...)
	sort.Strings(methods)
	return mgmt.PhoneConfiguration{
		SID:             c.SID.ValueString(),
		DefaultFrom:     c.DefaultFrom.ValueString(),
		MSSID:           c.MSSID.ValueString(),
		DeliveryMethods: methods,
	}, diags
}

// credentials are the write-only credentials of the configuration (none
// when it sets none).
func credentials(ctx context.Context, wo types.Object) (mgmt.PhoneCredentials, diag.Diagnostics) {
	var diags diag.Diagnostics
	c, ok := flex.ObjectAs[credentialsModel](ctx, wo, &diags)
	if !ok {
		return mgmt.PhoneCredentials{}, nil
	}
	return mgmt.PhoneCredentials{AuthToken: c.AuthToken.ValueString()}, diags
}

// toCreate is the POST body.
func (m resourceModel) toCreate(ctx context.Context, creds mgmt.PhoneCredentials) (mgmt.PhoneProviderCreate, diag.Diagnostics) {
	cfg, diags := m.configuration(ctx)
	return mgmt.PhoneProviderCreate{Name: m.Name.ValueString(), Disabled: m.Disabled.ValueBool(), Configuration: cfg, Credentials: creds}, diags
}

// toUpdate is the PATCH body: what changed against state. The
// configuration goes whole (the tenant replaces it); a change of name
// sends the configuration and the credentials with it, and a new
// credentials_wo_version the credentials.
func (m resourceModel) toUpdate(ctx context.Context, state resourceModel, creds mgmt.PhoneCredentials) (mgmt.PhoneProviderUpdate, diag.Diagnostics) {
	var u mgmt.PhoneProviderUpdate
	cfg, diags := m.configuration(ctx)
	renamed := !m.Name.Equal(state.Name)
	if renamed {
		u.Name = mgmt.Set(m.Name.ValueString())
	}
	if !m.Disabled.Equal(state.Disabled) {
		u.Disabled = mgmt.Set(m.Disabled.ValueBool())
	}
	if renamed || !m.Configuration.Equal(state.Configuration) {
		u.Configuration = mgmt.Set(cfg)
	}
	if renamed || !m.CredentialsWOVersion.Equal(state.CredentialsWOVersion) {
		u.Credentials = mgmt.Set(creds)
	}
	return u, diags
}

// same reports whether the tenant's provider p is what create sent: the
// check of a provider found after a lost answer (credentials cannot be
// compared, the tenant never shows them).
func same(create mgmt.PhoneProviderCreate, p *mgmt.PhoneProvider) bool {
	if p.Name != create.Name || p.Disabled != create.Disabled || p.Configuration == nil {
		return false
	}
	c, w := *p.Configuration, create.Configuration
	methods := append([]string{}, c.DeliveryMethods...)
	sort.Strings(methods)
	return c.SID == w.SID && c.DefaultFrom == w.DefaultFrom && c.MSSID == w.MSSID && fmt.Sprint(methods) == fmt.Sprint(w.DeliveryMethods)
}
