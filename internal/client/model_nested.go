package client

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// The nested objects of a client, as the schema types them and as Go
// structs for the conversions (clients-and-grants.md gives their shapes).

var (
	stringList   = types.ListType{ElemType: types.StringType}
	jwtType      = types.ObjectType{AttrTypes: map[string]attr.Type{"alg": types.StringType, "lifetime_in_seconds": types.Int64Type, "secret_encoded": types.BoolType, "scopes": types.MapType{ElemType: types.StringType}}}
	enabledType  = types.ObjectType{AttrTypes: map[string]attr.Type{"enabled": types.BoolType}}
	socialType   = types.ObjectType{AttrTypes: map[string]attr.Type{"apple": enabledType, "facebook": enabledType, "google": enabledType}}
	policyType   = types.ObjectType{AttrTypes: map[string]attr.Type{"audience": types.StringType, "scope": stringList}}
	refreshType  = types.ObjectType{AttrTypes: map[string]attr.Type{"rotation_type": types.StringType, "expiration_type": types.StringType, "leeway": types.Int64Type, "token_lifetime": types.Int64Type, "infinite_token_lifetime": types.BoolType, "idle_token_lifetime": types.Int64Type, "infinite_idle_token_lifetime": types.BoolType, "policies": types.ListType{ElemType: policyType}}}
	credRefType  = types.ObjectType{AttrTypes: map[string]attr.Type{"id": types.StringType}}
	credsType    = types.ObjectType{AttrTypes: map[string]attr.Type{"credentials": types.ListType{ElemType: credRefType}}}
	authType     = types.ObjectType{AttrTypes: map[string]attr.Type{"private_key_jwt": credsType, "tls_client_auth": credsType, "self_signed_tls_client_auth": credsType}}
	initiatorsTy = types.ObjectType{AttrTypes: map[string]attr.Type{"mode": types.StringType, "selected_initiators": stringList}}
	includeType  = types.ObjectType{AttrTypes: map[string]attr.Type{"include": types.BoolType}}
	logoutType   = types.ObjectType{AttrTypes: map[string]attr.Type{"backchannel_logout_urls": stringList, "backchannel_logout_initiators": initiatorsTy, "backchannel_logout_session_metadata": includeType}}
	defOrgType   = types.ObjectType{AttrTypes: map[string]attr.Type{"organization_id": types.StringType, "flows": stringList}}
	exchangeType = types.ObjectType{AttrTypes: map[string]attr.Type{"allow_any_profile_of_type": stringList}}
	limitsType   = types.ObjectType{AttrTypes: map[string]attr.Type{"enforce": types.BoolType, "per_day": types.Int64Type, "per_hour": types.Int64Type}}
	quotaType    = types.ObjectType{AttrTypes: map[string]attr.Type{"client_credentials": limitsType}}
	delegateType = types.ObjectType{AttrTypes: map[string]attr.Type{"allow_delegated_access": types.BoolType, "enforce_device_binding": types.StringType}}
	transferType = types.ObjectType{AttrTypes: map[string]attr.Type{"can_create_session_transfer_token": types.BoolType, "allowed_authentication_methods": stringList, "enforce_device_binding": types.StringType, "allow_refresh_token": types.BoolType, "enforce_online_refresh_tokens": types.BoolType, "enforce_cascade_revocation": types.BoolType, "delegation": delegateType}}
	googleType   = types.ObjectType{AttrTypes: map[string]attr.Type{"is_enabled": types.BoolType}}
	fedcmType    = types.ObjectType{AttrTypes: map[string]attr.Type{"google": googleType}}
	idjagType    = types.ObjectType{AttrTypes: map[string]attr.Type{"active": types.BoolType}}
)

type jwtModel struct {
	Alg               types.String `tfsdk:"alg"`
	LifetimeInSeconds types.Int64  `tfsdk:"lifetime_in_seconds"`
	SecretEncoded     types.Bool   `tfsdk:"secret_encoded"`
	Scopes            types.Map    `tfsdk:"scopes"`
}

type enabledModel struct {
	Enabled types.Bool `tfsdk:"enabled"`
}

type socialModel struct {
	Apple    types.Object `tfsdk:"apple"`
	Facebook types.Object `tfsdk:"facebook"`
	Google   types.Object `tfsdk:"google"`
}

type policyModel struct {
	Audience types.String `tfsdk:"audience"`
	Scope    types.List   `tfsdk:"scope"`
}

type refreshModel struct {
	RotationType              types.String `tfsdk:"rotation_type"`
	ExpirationType            types.String `tfsdk:"expiration_type"`
	Leeway                    types.Int64  `tfsdk:"leeway"`
	TokenLifetime             types.Int64  `tfsdk:"token_lifetime"`
	InfiniteTokenLifetime     types.Bool   `tfsdk:"infinite_token_lifetime"`
	IdleTokenLifetime         types.Int64  `tfsdk:"idle_token_lifetime"`
	InfiniteIdleTokenLifetime types.Bool   `tfsdk:"infinite_idle_token_lifetime"`
	Policies                  types.List   `tfsdk:"policies"`
}

type initiatorsModel struct {
	Mode               types.String `tfsdk:"mode"`
	SelectedInitiators types.List   `tfsdk:"selected_initiators"`
}

type includeModel struct {
	Include types.Bool `tfsdk:"include"`
}

type logoutModel struct {
	URLs            types.List   `tfsdk:"backchannel_logout_urls"`
	Initiators      types.Object `tfsdk:"backchannel_logout_initiators"`
	SessionMetadata types.Object `tfsdk:"backchannel_logout_session_metadata"`
}

type defOrgModel struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	Flows          types.List   `tfsdk:"flows"`
}

type exchangeModel struct {
	AllowAnyProfileOfType types.List `tfsdk:"allow_any_profile_of_type"`
}

type limitsModel struct {
	Enforce types.Bool  `tfsdk:"enforce"`
	PerDay  types.Int64 `tfsdk:"per_day"`
	PerHour types.Int64 `tfsdk:"per_hour"`
}

type quotaModel struct {
	ClientCredentials limitsModel `tfsdk:"client_credentials"`
}

type delegateModel struct {
	AllowDelegatedAccess types.Bool   `tfsdk:"allow_delegated_access"`
	EnforceDeviceBinding types.String `tfsdk:"enforce_device_binding"`
}

type transferModel struct {
	CanCreate            types.Bool   `tfsdk:"can_create_session_transfer_token"`
	AllowedMethods       types.List   `tfsdk:"allowed_authentication_methods"`
	EnforceDeviceBinding types.String `tfsdk:"enforce_device_binding"`
	AllowRefreshToken    types.Bool   `tfsdk:"allow_refresh_token"`
	EnforceOnline        types.Bool   `tfsdk:"enforce_online_refresh_tokens"`
	EnforceCascade       types.Bool   `tfsdk:"enforce_cascade_revocation"`
	Delegation           types.Object `tfsdk:"delegation"`
}

type fedcmModel struct {
	Google struct {
		IsEnabled types.Bool `tfsdk:"is_enabled"`
	} `tfsdk:"google"`
}

type idjagModel struct {
	Active types.Bool `tfsdk:"active"`
}

// jwtToAPI is jwt_configuration to send: every known setting, and scopes
// as an empty object when none or cleared (the tenant that replaces the
// object clears them either way; one that merges it keeps them, which the
// update reads back: see keptScopes).
func jwtToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.JWTConfiguration {
	m, ok := flex.ObjectAs[jwtModel](ctx, o, diags)
	if !ok {
		return nil
	}
	scopes := flex.StringMap(ctx, m.Scopes, diags)
	return &mgmt.JWTConfiguration{
		Alg:               flex.StringPointer(m.Alg),
		LifetimeInSeconds: flex.Int64Pointer(m.LifetimeInSeconds),
		SecretEncoded:     flex.BoolPointer(m.SecretEncoded),
		Scopes:            &scopes,
	}
}

func jwtFromAPI(ctx context.Context, j *mgmt.JWTConfiguration, diags *diag.Diagnostics) types.Object {
	if j == nil {
		return types.ObjectNull(jwtType.AttrTypes)
	}
	return flex.ObjectOf(ctx, jwtType, jwtModel{
		Alg:               types.StringPointerValue(j.Alg),
		LifetimeInSeconds: types.Int64PointerValue(j.LifetimeInSeconds),
		SecretEncoded:     types.BoolPointerValue(j.SecretEncoded),
		Scopes:            flex.MapOf(j.Scopes),
	}, diags)
}

func enabledValue(on bool) types.Object {
	return types.ObjectValueMust(enabledType.AttrTypes, map[string]attr.Value{"enabled": types.BoolValue(on)})
}

func nativeSocialLoginValue(apple, facebook, google bool) types.Object {
	return types.ObjectValueMust(socialType.AttrTypes, map[string]attr.Value{
		"apple":    enabledValue(apple),
		"facebook": enabledValue(facebook),
		"google":   enabledValue(google),
	})
}

func socialToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.NativeSocialLogin {
	m, ok := flex.ObjectAs[socialModel](ctx, o, diags)
	if !ok {
		return nil
	}
	side := func(o types.Object) *mgmt.Enabled {
		e, ok := flex.ObjectAs[enabledModel](ctx, o, diags)
		return &mgmt.Enabled{Enabled: ok && e.Enabled.ValueBool()}
	}
	return &mgmt.NativeSocialLogin{Apple: side(m.Apple), Facebook: side(m.Facebook), Google: side(m.Google)}
}

// socialFromAPI reads native_social_login: a provider the API does not
// show, or an API without the object, is not enabled.
func socialFromAPI(n *mgmt.NativeSocialLogin) types.Object {
	on := func(e *mgmt.Enabled) bool { return e != nil && e.Enabled }
	if n == nil {
		return nativeSocialLoginValue(false, false, false)
	}
	return nativeSocialLoginValue(on(n.Apple), on(n.Facebook), on(n.Google))
}

func defaultRefreshToken() types.Object {
	return types.ObjectValueMust(refreshType.AttrTypes, map[string]attr.Value{
		"rotation_type":                types.StringValue("non-rotating"),
		"expiration_type":              types.StringValue("non-expiring"),
		"leeway":                       types.Int64Value(0),
		"token_lifetime":               types.Int64Value(defaultRefreshLifetime),
		"infinite_token_lifetime":      types.BoolValue(true),
		"idle_token_lifetime":          types.Int64Value(defaultRefreshIdleLifetime),
		"infinite_idle_token_lifetime": types.BoolValue(true),
		"policies":                     types.ListNull(policyType),
	})
}

// refreshToAPI is refresh_token to send: every setting, and policies as an
// empty list when none.
func refreshToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.RefreshToken {
	m, ok := flex.ObjectAs[refreshModel](ctx, o, diags)
	if !ok {
		return nil
	}
	policies := []mgmt.RefreshTokenPolicy{}
	if flex.IsSet(m.Policies) {
		var items []policyModel
		diags.Append(m.Policies.ElementsAs(ctx, &items, false)...)
		for _, p := range items {
			policies = append(policies, mgmt.RefreshTokenPolicy{Audience: p.Audience.ValueString(), Scope: flex.Strings(ctx, p.Scope, diags)})
		}
	}
	return &mgmt.RefreshToken{
		RotationType:              flex.StringPointer(m.RotationType),
		ExpirationType:            flex.StringPointer(m.ExpirationType),
		Leeway:                    flex.Int64Pointer(m.Leeway),
		TokenLifetime:             flex.Int64Pointer(m.TokenLifetime),
		InfiniteTokenLifetime:     flex.BoolPointer(m.InfiniteTokenLifetime),
		IdleTokenLifetime:         flex.Int64Pointer(m.IdleTokenLifetime),
		InfiniteIdleTokenLifetime: flex.BoolPointer(m.InfiniteIdleTokenLifetime),
		Policies:                  &policies,
	}
}

// refreshFromAPI reads refresh_token; what the API leaves out is the
// tenant's default.
func refreshFromAPI(ctx context.Context, r *mgmt.RefreshToken, diags *diag.Diagnostics) types.Object {
	if r == nil {
		return defaultRefreshToken()
	}
	expiration := flex.StringOr(r.ExpirationType, "non-expiring")
	nonExpiring := expiration.ValueString() == "non-expiring"
	policies := types.ListNull(policyType)
	if r.Policies != nil && len(*r.Policies) > 0 {
		items := make([]policyModel, 0, len(*r.Policies))
		for _, p := range *r.Policies {
			scope := p.Scope
			items = append(items, policyModel{Audience: types.StringValue(p.Audience), Scope: flex.ListOrEmpty(&scope)})
		}
		l, d := types.ListValueFrom(ctx, policyType, items)
		diags.Append(d...)
		policies = l
	}
	return flex.ObjectOf(ctx, refreshType, refreshModel{
		RotationType:              flex.StringOr(r.RotationType, "non-rotating"),
		ExpirationType:            expiration,
		Leeway:                    flex.Int64Or(r.Leeway, 0),
		TokenLifetime:             flex.Int64Or(r.TokenLifetime, defaultRefreshLifetime),
		InfiniteTokenLifetime:     flex.BoolOr(r.InfiniteTokenLifetime, nonExpiring),
		IdleTokenLifetime:         flex.Int64Or(r.IdleTokenLifetime, defaultRefreshIdleLifetime),
		InfiniteIdleTokenLifetime: flex.BoolOr(r.InfiniteIdleTokenLifetime, nonExpiring),
		Policies:                  policies,
	}, diags)
}

func authFromAPI(ctx context.Context, a *mgmt.ClientAuthenticationMethods, diags *diag.Diagnostics) types.Object {
	if a == nil {
		return types.ObjectNull(authType.AttrTypes)
	}
	refs := func(c *mgmt.CredentialRefs) types.Object {
		if c == nil {
			return types.ObjectNull(credsType.AttrTypes)
		}
		elems := make([]attr.Value, 0, len(c.Credentials))
		for _, cr := range c.Credentials {
			elems = append(elems, types.ObjectValueMust(credRefType.AttrTypes, map[string]attr.Value{"id": types.StringValue(cr.ID)}))
		}
		return types.ObjectValueMust(credsType.AttrTypes, map[string]attr.Value{"credentials": types.ListValueMust(credRefType, elems)})
	}
	return types.ObjectValueMust(authType.AttrTypes, map[string]attr.Value{
		"private_key_jwt":             refs(a.PrivateKeyJWT),
		"tls_client_auth":             refs(a.TLSClientAuth),
		"self_signed_tls_client_auth": refs(a.SelfSignedTLSClientAuth),
	})
}

func logoutToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.OIDCLogout {
	m, ok := flex.ObjectAs[logoutModel](ctx, o, diags)
	if !ok {
		return nil
	}
	out := &mgmt.OIDCLogout{BackchannelLogoutURLs: flex.Strings(ctx, m.URLs, diags)}
	if i, ok := flex.ObjectAs[initiatorsModel](ctx, m.Initiators, diags); ok {
		out.BackchannelLogoutInitiators = &mgmt.LogoutInitiators{Mode: i.Mode.ValueString(), SelectedInitiators: flex.StringsPointer(ctx, i.SelectedInitiators, diags)}
	}
	if s, ok := flex.ObjectAs[includeModel](ctx, m.SessionMetadata, diags); ok {
		out.BackchannelLogoutSessionMetadata = &mgmt.LogoutSessionMetadata{Include: s.Include.ValueBool()}
	}
	return out
}

func logoutFromAPI(ctx context.Context, l *mgmt.OIDCLogout, diags *diag.Diagnostics) types.Object {
	if l == nil {
		return types.ObjectNull(logoutType.AttrTypes)
	}
	urls := l.BackchannelLogoutURLs
	m := logoutModel{
		URLs:            flex.ListOrEmpty(&urls),
		Initiators:      types.ObjectNull(initiatorsTy.AttrTypes),
		SessionMetadata: types.ObjectNull(includeType.AttrTypes),
	}
	if i := l.BackchannelLogoutInitiators; i != nil {
		m.Initiators = flex.ObjectOf(ctx, initiatorsTy, initiatorsModel{Mode: types.StringValue(i.Mode), SelectedInitiators: flex.ListOf(i.SelectedInitiators)}, diags)
	}
	if s := l.BackchannelLogoutSessionMetadata; s != nil {
		m.SessionMetadata = flex.ObjectOf(ctx, includeType, includeModel{Include: types.BoolValue(s.Include)}, diags)
	}
	return flex.ObjectOf(ctx, logoutType, m, diags)
}

func defOrgToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.DefaultOrganization {
	m, ok := flex.ObjectAs[defOrgModel](ctx, o, diags)
	if !ok {
		return nil
	}
	return &mgmt.DefaultOrganization{OrganizationID: m.OrganizationID.ValueString(), Flows: flex.Strings(ctx, m.Flows, diags)}
}

func defOrgFromAPI(ctx context.Context, d *mgmt.DefaultOrganization, diags *diag.Diagnostics) types.Object {
	if d == nil || d.OrganizationID == "" {
		return types.ObjectNull(defOrgType.AttrTypes)
	}
	flows := d.Flows
	return flex.ObjectOf(ctx, defOrgType, defOrgModel{OrganizationID: types.StringValue(d.OrganizationID), Flows: flex.ListOrEmpty(&flows)}, diags)
}

func exchangeToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.TokenExchange {
	m, ok := flex.ObjectAs[exchangeModel](ctx, o, diags)
	if !ok {
		return nil
	}
	return &mgmt.TokenExchange{AllowAnyProfileOfType: flex.Strings(ctx, m.AllowAnyProfileOfType, diags)}
}

// exchangeFromAPI reads token_exchange; an empty list of types is none.
func exchangeFromAPI(ctx context.Context, t *mgmt.TokenExchange, diags *diag.Diagnostics) types.Object {
	if t == nil || len(t.AllowAnyProfileOfType) == 0 {
		return types.ObjectNull(exchangeType.AttrTypes)
	}
	profiles := t.AllowAnyProfileOfType
	return flex.ObjectOf(ctx, exchangeType, exchangeModel{AllowAnyProfileOfType: flex.ListOf(&profiles)}, diags)
}

func quotaToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.TokenQuota {
	m, ok := flex.ObjectAs[quotaModel](ctx, o, diags)
	if !ok {
		return nil
	}
	l := m.ClientCredentials
	return &mgmt.TokenQuota{ClientCredentials: mgmt.TokenQuotaLimits{Enforce: flex.BoolPointer(l.Enforce), PerDay: flex.Int64Pointer(l.PerDay), PerHour: flex.Int64Pointer(l.PerHour)}}
}

func quotaFromAPI(ctx context.Context, q *mgmt.TokenQuota, diags *diag.Diagnostics) types.Object {
	if q == nil {
		return types.ObjectNull(quotaType.AttrTypes)
	}
	l := q.ClientCredentials
	return flex.ObjectOf(ctx, quotaType, quotaModel{ClientCredentials: limitsModel{
		Enforce: types.BoolPointerValue(l.Enforce),
		PerDay:  types.Int64PointerValue(l.PerDay),
		PerHour: types.Int64PointerValue(l.PerHour),
	}}, diags)
}

func transferToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.SessionTransfer {
	m, ok := flex.ObjectAs[transferModel](ctx, o, diags)
	if !ok {
		return nil
	}
	out := &mgmt.SessionTransfer{
		CanCreateSessionTransferToken: flex.BoolPointer(m.CanCreate),
		AllowedAuthenticationMethods:  flex.StringsPointer(ctx, m.AllowedMethods, diags),
		EnforceDeviceBinding:          flex.StringPointer(m.EnforceDeviceBinding),
		AllowRefreshToken:             flex.BoolPointer(m.AllowRefreshToken),
		EnforceOnlineRefreshTokens:    flex.BoolPointer(m.EnforceOnline),
		EnforceCascadeRevocation:      flex.BoolPointer(m.EnforceCascade),
	}
	if d, ok := flex.ObjectAs[delegateModel](ctx, m.Delegation, diags); ok {
		out.Delegation = &mgmt.Delegation{AllowDelegatedAccess: flex.BoolPointer(d.AllowDelegatedAccess), EnforceDeviceBinding: flex.StringPointer(d.EnforceDeviceBinding)}
	}
	return out
}

func transferFromAPI(ctx context.Context, t *mgmt.SessionTransfer, diags *diag.Diagnostics) types.Object {
	if t == nil {
		return types.ObjectNull(transferType.AttrTypes)
	}
	m := transferModel{
		CanCreate:            types.BoolPointerValue(t.CanCreateSessionTransferToken),
		AllowedMethods:       types.ListNull(types.StringType),
		EnforceDeviceBinding: types.StringPointerValue(t.EnforceDeviceBinding),
		AllowRefreshToken:    types.BoolPointerValue(t.AllowRefreshToken),
		EnforceOnline:        types.BoolPointerValue(t.EnforceOnlineRefreshTokens),
		EnforceCascade:       types.BoolPointerValue(t.EnforceCascadeRevocation),
		Delegation:           types.ObjectNull(delegateType.AttrTypes),
	}
	if t.AllowedAuthenticationMethods != nil {
		m.AllowedMethods = flex.ListOrEmpty(t.AllowedAuthenticationMethods)
	}
	if d := t.Delegation; d != nil {
		m.Delegation = flex.ObjectOf(ctx, delegateType, delegateModel{
			AllowDelegatedAccess: types.BoolPointerValue(d.AllowDelegatedAccess),
			EnforceDeviceBinding: types.StringPointerValue(d.EnforceDeviceBinding),
		}, diags)
	}
	return flex.ObjectOf(ctx, transferType, m, diags)
}

func fedcmToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.FedCMLogin {
	m, ok := flex.ObjectAs[fedcmModel](ctx, o, diags)
	if !ok {
		return nil
	}
	return &mgmt.FedCMLogin{Google: &mgmt.FedCMGoogle{IsEnabled: m.Google.IsEnabled.ValueBool()}}
}

func fedcmFromAPI(f *mgmt.FedCMLogin) types.Object {
	if f == nil || f.Google == nil {
		return types.ObjectNull(fedcmType.AttrTypes)
	}
	return types.ObjectValueMust(fedcmType.AttrTypes, map[string]attr.Value{
		"google": types.ObjectValueMust(googleType.AttrTypes, map[string]attr.Value{"is_enabled": types.BoolValue(f.Google.IsEnabled)}),
	})
}

func idjagToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.IdentityAssertionGrant {
	m, ok := flex.ObjectAs[idjagModel](ctx, o, diags)
	if !ok {
		return nil
	}
	return &mgmt.IdentityAssertionGrant{Active: m.Active.ValueBool()}
}

func idjagFromAPI(g *mgmt.IdentityAssertionGrant) types.Object {
	if g == nil {
		return types.ObjectNull(idjagType.AttrTypes)
	}
	return types.ObjectValueMust(idjagType.AttrTypes, map[string]attr.Value{"active": types.BoolValue(g.Active)})
}
