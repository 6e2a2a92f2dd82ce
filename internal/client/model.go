package client

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// clientModel is the resource's model; the data source and the list
// resource use it too, without the secret's switches.
type clientModel struct {
	ID                                  types.String `tfsdk:"id"`
	ClientID                            types.String `tfsdk:"client_id"`
	Name                                types.String `tfsdk:"name"`
	Description                         types.String `tfsdk:"description"`
	AppType                             types.String `tfsdk:"app_type"`
	LogoURI                             types.String `tfsdk:"logo_uri"`
	IsFirstParty                        types.Bool   `tfsdk:"is_first_party"`
	IsTokenEndpointIPHeaderTrusted      types.Bool   `tfsdk:"is_token_endpoint_ip_header_trusted"`
	OIDCConformant                      types.Bool   `tfsdk:"oidc_conformant"`
	Callbacks                           types.List   `tfsdk:"callbacks"`
	AllowedOrigins                      types.List   `tfsdk:"allowed_origins"`
	WebOrigins                          types.List   `tfsdk:"web_origins"`
	ClientAliases                       types.List   `tfsdk:"client_aliases"`
	AllowedClients                      types.List   `tfsdk:"allowed_clients"`
	AllowedLogoutURLs                   types.List   `tfsdk:"allowed_logout_urls"`
	GrantTypes                          types.List   `tfsdk:"grant_types"`
	JWTConfiguration                    types.Object `tfsdk:"jwt_configuration"`
	SSO                                 types.Bool   `tfsdk:"sso"`
	SSODisabled                         types.Bool   `tfsdk:"sso_disabled"`
	CrossOriginAuthentication           types.Bool   `tfsdk:"cross_origin_authentication"`
	CrossOriginLoc                      types.String `tfsdk:"cross_origin_loc"`
	CustomLoginPageOn                   types.Bool   `tfsdk:"custom_login_page_on"`
	CustomLoginPage                     types.String `tfsdk:"custom_login_page"`
	CustomLoginPagePreview              types.String `tfsdk:"custom_login_page_preview"`
	FormTemplate                        types.String `tfsdk:"form_template"`
	TokenEndpointAuthMethod             types.String `tfsdk:"token_endpoint_auth_method"`
	ClientMetadata                      types.Map    `tfsdk:"client_metadata"`
	InitiateLoginURI                    types.String `tfsdk:"initiate_login_uri"`
	NativeSocialLogin                   types.Object `tfsdk:"native_social_login"`
	RefreshToken                        types.Object `tfsdk:"refresh_token"`
	OrganizationUsage                   types.String `tfsdk:"organization_usage"`
	OrganizationRequireBehavior         types.String `tfsdk:"organization_require_behavior"`
	OrganizationDiscoveryMethods        types.List   `tfsdk:"organization_discovery_methods"`
	ClientAuthenticationMethods         types.Object `tfsdk:"client_authentication_methods"`
	RequirePushedAuthorizationRequests  types.Bool   `tfsdk:"require_pushed_authorization_requests"`
	RequireProofOfPossession            types.Bool   `tfsdk:"require_proof_of_possession"`
	OIDCLogout                          types.Object `tfsdk:"oidc_logout"`
	ComplianceLevel                     types.String `tfsdk:"compliance_level"`
	DefaultOrganization                 types.Object `tfsdk:"default_organization"`
	TokenExchange                       types.Object `tfsdk:"token_exchange"`
	TokenQuota                          types.Object `tfsdk:"token_quota"`
	SessionTransfer                     types.Object `tfsdk:"session_transfer"`
	ResourceServerIdentifier            types.String `tfsdk:"resource_server_identifier"`
	SkipNonVerifiableCallbackPrompt     types.Bool   `tfsdk:"skip_non_verifiable_callback_uri_confirmation_prompt"`
	AsyncApprovalNotificationChannels   types.List   `tfsdk:"async_approval_notification_channels"`
	ThirdPartySecurityMode              types.String `tfsdk:"third_party_security_mode"`
	RedirectionPolicy                   types.String `tfsdk:"redirection_policy"`
	FedCMLogin                          types.Object `tfsdk:"fedcm_login"`
	IdentityAssertionAuthorizationGrant types.Object `tfsdk:"identity_assertion_authorization_grant"`
}

// resourceModel is clientModel with the resource's own switches of the
// secret.
type resourceModel struct {
	clientModel
	ClientSecretRotation types.Int64  `tfsdk:"client_secret_rotation"`
	ClientSecretInState  types.Bool   `tfsdk:"client_secret_in_state"`
	ClientSecret         types.String `tfsdk:"client_secret"`
}

// toCreate builds the POST body: every value the configuration sets, from
// the plan. What the configuration leaves out is the tenant's to fill, and
// the plan shows the tenant's default for it (or a value known after
// apply), so the tenant then holds exactly the plan; a tenant without a
// feature never meets the feature's field unless it is configured.
func (m clientModel) toCreate(ctx context.Context, config clientModel) (mgmt.AppClient, diag.Diagnostics) {
	var diags diag.Diagnostics
	str := func(cfg, plan types.String) *string {
		if !cfg.IsNull() {
			return flex.StringPointer(plan)
		}
		return nil
	}
	flag := func(cfg, plan types.Bool) *bool {
		if !cfg.IsNull() {
			return flex.BoolPointer(plan)
		}
		return nil
	}
	list := func(cfg, plan types.List) *[]string {
		if !cfg.IsNull() {
			return flex.StringsPointer(ctx, plan, &diags)
		}
		return nil
	}
	c := mgmt.AppClient{
		Name:                               flex.StringPointer(m.Name),
		Description:                        str(config.Description, m.Description),
		AppType:                            str(config.AppType, m.AppType),
		LogoURI:                            str(config.LogoURI, m.LogoURI),
		IsFirstParty:                       flag(config.IsFirstParty, m.IsFirstParty),
		IsTokenEndpointIPHeaderTrusted:     flag(config.IsTokenEndpointIPHeaderTrusted, m.IsTokenEndpointIPHeaderTrusted),
		OIDCConformant:                     flag(config.OIDCConformant, m.OIDCConformant),
		Callbacks:                          list(config.Callbacks, m.Callbacks),
		AllowedOrigins:                     list(config.AllowedOrigins, m.AllowedOrigins),
		WebOrigins:                         list(config.WebOrigins, m.WebOrigins),
		ClientAliases:                      list(config.ClientAliases, m.ClientAliases),
		AllowedClients:                     list(config.AllowedClients, m.AllowedClients),
		AllowedLogoutURLs:                  list(config.AllowedLogoutURLs, m.AllowedLogoutURLs),
		GrantTypes:                         list(config.GrantTypes, m.GrantTypes),
		SSO:                                flag(config.SSO, m.SSO),
		SSODisabled:                        flag(config.SSODisabled, m.SSODisabled),
		CrossOriginAuthentication:          flag(config.CrossOriginAuthentication, m.CrossOriginAuthentication),
		CrossOriginLoc:                     str(config.CrossOriginLoc, m.CrossOriginLoc),
		CustomLoginPageOn:                  flag(config.CustomLoginPageOn, m.CustomLoginPageOn),
		CustomLoginPage:                    str(config.CustomLoginPage, m.CustomLoginPage),
		CustomLoginPagePreview:             str(config.CustomLoginPagePreview, m.CustomLoginPagePreview),
		FormTemplate:                       str(config.FormTemplate, m.FormTemplate),
		TokenEndpointAuthMethod:            str(config.TokenEndpointAuthMethod, m.TokenEndpointAuthMethod),
		InitiateLoginURI:                   str(config.InitiateLoginURI, m.InitiateLoginURI),
		OrganizationUsage:                  str(config.OrganizationUsage, m.OrganizationUsage),
		OrganizationRequireBehavior:        str(config.OrganizationRequireBehavior, m.OrganizationRequireBehavior),
		OrganizationDiscoveryMethods:       list(config.OrganizationDiscoveryMethods, m.OrganizationDiscoveryMethods),
		RequirePushedAuthorizationRequests: flag(config.RequirePushedAuthorizationRequests, m.RequirePushedAuthorizationRequests),
		RequireProofOfPossession:           flag(config.RequireProofOfPossession, m.RequireProofOfPossession),
		ComplianceLevel:                    str(config.ComplianceLevel, m.ComplianceLevel),
		ResourceServerIdentifier:           str(config.ResourceServerIdentifier, m.ResourceServerIdentifier),
		SkipNonVerifiableCallbackURIConfirmationPrompt: flag(config.SkipNonVerifiableCallbackPrompt, m.SkipNonVerifiableCallbackPrompt),
		AsyncApprovalNotificationChannels:              list(config.AsyncApprovalNotificationChannels, m.AsyncApprovalNotificationChannels),
		ThirdPartySecurityMode:                         str(config.ThirdPartySecurityMode, m.ThirdPartySecurityMode),
		RedirectionPolicy:                              str(config.RedirectionPolicy, m.RedirectionPolicy),
	}
	if !config.ClientMetadata.IsNull() {
		md := flex.StringMap(ctx, m.ClientMetadata, &diags)
		c.ClientMetadata = &md
	}
	if !config.JWTConfiguration.IsNull() {
		c.JWTConfiguration = jwtToAPI(ctx, m.JWTConfiguration, &diags)
		// A new client's scopes are none: an empty object says nothing.
		if j := c.JWTConfiguration; j != nil && j.Scopes != nil && len(*j.Scopes) == 0 {
			j.Scopes = nil
		}
	}
	if !config.NativeSocialLogin.IsNull() {
		c.NativeSocialLogin = socialToAPI(ctx, m.NativeSocialLogin, &diags)
	}
	if !config.RefreshToken.IsNull() {
		c.RefreshToken = refreshToAPI(ctx, m.RefreshToken, &diags)
		if r := c.RefreshToken; r != nil && r.Policies != nil && len(*r.Policies) == 0 {
			r.Policies = nil
		}
	}
	if !config.OIDCLogout.IsNull() {
		c.OIDCLogout = logoutToAPI(ctx, m.OIDCLogout, &diags)
	}
	c.DefaultOrganization = defOrgToAPI(ctx, m.DefaultOrganization, &diags)
	c.TokenExchange = exchangeToAPI(ctx, m.TokenExchange, &diags)
	c.TokenQuota = quotaToAPI(ctx, m.TokenQuota, &diags)
	c.SessionTransfer = transferToAPI(ctx, m.SessionTransfer, &diags)
	if !config.FedCMLogin.IsNull() {
		c.FedCMLogin = fedcmToAPI(ctx, m.FedCMLogin, &diags)
	}
	if !config.IdentityAssertionAuthorizationGrant.IsNull() {
		c.IdentityAssertionAuthorizationGrant = idjagToAPI(ctx, m.IdentityAssertionAuthorizationGrant, &diags)
	}
	return c, diags
}

// toUpdate builds the PATCH body: the attributes whose plan differs from
// the state, so the request carries what the plan shows and never a stale
// value the user did not write. An attribute with a default is planned at
// it when removed, and so sent. Removed, a list the API keeps as sent is
// sent empty, a field the API clears with null is sent null [S: the SDK
// documents null for compliance_level, token_quota,
// skip_non_verifiable_callback_uri_confirmation_prompt,
// organization_discovery_methods, async_approval_notification_channels;
// O: session_transfer; the incumbent provider clears default_organization
// so], and token_exchange is sent null (assumption: the reference does not
// say how it is cleared). client_metadata is sent whole with a null for
// each key removed (the API merges it key by key [S]).
func (m clientModel) toUpdate(ctx context.Context, state clientModel) (mgmt.AppClientUpdate, diag.Diagnostics) {
	var diags diag.Diagnostics
	u := mgmt.AppClientUpdate{
		Name:                               flex.PatchString(m.Name, state.Name, flex.Keep),
		Description:                        flex.PatchString(m.Description, state.Description, flex.Keep),
		AppType:                            flex.PatchString(m.AppType, state.AppType, flex.Keep),
		LogoURI:                            flex.PatchString(m.LogoURI, state.LogoURI, flex.Keep),
		IsFirstParty:                       flex.PatchBool(m.IsFirstParty, state.IsFirstParty, flex.Keep),
		IsTokenEndpointIPHeaderTrusted:     flex.PatchBool(m.IsTokenEndpointIPHeaderTrusted, state.IsTokenEndpointIPHeaderTrusted, flex.Keep),
		OIDCConformant:                     flex.PatchBool(m.OIDCConformant, state.OIDCConformant, flex.Keep),
		Callbacks:                          flex.PatchStrings(ctx, m.Callbacks, state.Callbacks, flex.Empty, &diags),
		AllowedOrigins:                     flex.PatchStrings(ctx, m.AllowedOrigins, state.AllowedOrigins, flex.Empty, &diags),
		WebOrigins:                         flex.PatchStrings(ctx, m.WebOrigins, state.WebOrigins, flex.Empty, &diags),
		ClientAliases:                      flex.PatchStrings(ctx, m.ClientAliases, state.ClientAliases, flex.Empty, &diags),
		AllowedClients:                     flex.PatchStrings(ctx, m.AllowedClients, state.AllowedClients, flex.Empty, &diags),
		AllowedLogoutURLs:                  flex.PatchStrings(ctx, m.AllowedLogoutURLs, state.AllowedLogoutURLs, flex.Empty, &diags),
		SSO:                                flex.PatchBool(m.SSO, state.SSO, flex.Keep),
		SSODisabled:                        flex.PatchBool(m.SSODisabled, state.SSODisabled, flex.Keep),
		CrossOriginAuthentication:          flex.PatchBool(m.CrossOriginAuthentication, state.CrossOriginAuthentication, flex.Keep),
		CrossOriginLoc:                     flex.PatchString(m.CrossOriginLoc, state.CrossOriginLoc, flex.Keep),
		CustomLoginPageOn:                  flex.PatchBool(m.CustomLoginPageOn, state.CustomLoginPageOn, flex.Keep),
		CustomLoginPage:                    flex.PatchString(m.CustomLoginPage, state.CustomLoginPage, flex.Keep),
		CustomLoginPagePreview:             flex.PatchString(m.CustomLoginPagePreview, state.CustomLoginPagePreview, flex.Keep),
		FormTemplate:                       flex.PatchString(m.FormTemplate, state.FormTemplate, flex.Keep),
		TokenEndpointAuthMethod:            flex.PatchString(m.TokenEndpointAuthMethod, state.TokenEndpointAuthMethod, flex.Keep),
		InitiateLoginURI:                   flex.PatchString(m.InitiateLoginURI, state.InitiateLoginURI, flex.Keep),
		OrganizationUsage:                  flex.PatchString(m.OrganizationUsage, state.OrganizationUsage, flex.Keep),
		OrganizationRequireBehavior:        flex.PatchString(m.OrganizationRequireBehavior, state.OrganizationRequireBehavior, flex.Keep),
		OrganizationDiscoveryMethods:       flex.PatchStrings(ctx, m.OrganizationDiscoveryMethods, state.OrganizationDiscoveryMethods, flex.Clear, &diags),
		RequirePushedAuthorizationRequests: flex.PatchBool(m.RequirePushedAuthorizationRequests, state.RequirePushedAuthorizationRequests, flex.Keep),
		RequireProofOfPossession:           flex.PatchBool(m.RequireProofOfPossession, state.RequireProofOfPossession, flex.Keep),
		ComplianceLevel:                    flex.PatchString(m.ComplianceLevel, state.ComplianceLevel, flex.Clear),
		SkipNonVerifiableCallbackURIConfirmationPrompt: flex.PatchBool(m.SkipNonVerifiableCallbackPrompt, state.SkipNonVerifiableCallbackPrompt, flex.Clear),
		AsyncApprovalNotificationChannels:              flex.PatchStrings(ctx, m.AsyncApprovalNotificationChannels, state.AsyncApprovalNotificationChannels, flex.Clear, &diags),
		RedirectionPolicy:                              flex.PatchString(m.RedirectionPolicy, state.RedirectionPolicy, flex.Keep),
	}
	if flex.Changed(m.GrantTypes, state.GrantTypes) && !m.GrantTypes.IsNull() {
		u.GrantTypes = mgmt.Set(flex.Strings(ctx, m.GrantTypes, &diags))
	}
	if flex.Changed(m.ClientMetadata, state.ClientMetadata) {
		md := map[string]*string{}
		for k, v := range flex.StringMap(ctx, m.ClientMetadata, &diags) {
			md[k] = &v
		}
		for k := range flex.StringMap(ctx, state.ClientMetadata, &diags) {
			if _, kept := md[k]; !kept {
				md[k] = nil
			}
		}
		u.ClientMetadata = mgmt.Set(md)
	}
	u.JWTConfiguration = flex.PatchObject(m.JWTConfiguration, state.JWTConfiguration, flex.Keep, func() *mgmt.JWTConfiguration {
		return jwtToAPI(ctx, m.JWTConfiguration, &diags)
	})
	u.NativeSocialLogin = flex.PatchObject(m.NativeSocialLogin, state.NativeSocialLogin, flex.Keep, func() *mgmt.NativeSocialLogin {
		return socialToAPI(ctx, m.NativeSocialLogin, &diags)
	})
	u.RefreshToken = flex.PatchObject(m.RefreshToken, state.RefreshToken, flex.Keep, func() *mgmt.RefreshToken {
		return refreshToAPI(ctx, m.RefreshToken, &diags)
	})
	u.OIDCLogout = flex.PatchObject(m.OIDCLogout, state.OIDCLogout, flex.Keep, func() *mgmt.OIDCLogout {
		return logoutToAPI(ctx, m.OIDCLogout, &diags)
	})
	u.DefaultOrganization = flex.PatchObject(m.DefaultOrganization, state.DefaultOrganization, flex.Clear, func() *mgmt.DefaultOrganization {
		return defOrgToAPI(ctx, m.DefaultOrganization, &diags)
	})
	u.TokenExchange = flex.PatchObject(m.TokenExchange, state.TokenExchange, flex.Clear, func() *mgmt.TokenExchange {
		return exchangeToAPI(ctx, m.TokenExchange, &diags)
	})
	u.TokenQuota = flex.PatchObject(m.TokenQuota, state.TokenQuota, flex.Clear, func() *mgmt.TokenQuota {
		return quotaToAPI(ctx, m.TokenQuota, &diags)
	})
	u.SessionTransfer = flex.PatchObject(m.SessionTransfer, state.SessionTransfer, flex.Clear, func() *mgmt.SessionTransfer {
		return transferToAPI(ctx, m.SessionTransfer, &diags)
	})
	u.FedCMLogin = flex.PatchObject(m.FedCMLogin, state.FedCMLogin, flex.Keep, func() *mgmt.FedCMLogin {
		return fedcmToAPI(ctx, m.FedCMLogin, &diags)
	})
	u.IdentityAssertionAuthorizationGrant = flex.PatchObject(m.IdentityAssertionAuthorizationGrant, state.IdentityAssertionAuthorizationGrant, flex.Keep,
		func() *mgmt.IdentityAssertionGrant {
			return idjagToAPI(ctx, m.IdentityAssertionAuthorizationGrant, &diags)
		})
	return u, diags
}

// fromAPI sets the model from the API's client. A field the API leaves out
// is the tenant's default where one is known (description, the booleans
// with defaults, refresh_token, native_social_login), else null; an empty
// list or map is the same as none. grant_types left out keeps the model's
// value (the state's on a read, the plan's on an update): the reference
// lists it as "sometimes" in answers to GET and PATCH, though every
// recorded answer that names a client shows it (those without it were
// reads filtered with fields) and the create's answer always does [O]. A
// defence, at the cost of not seeing a change made outside Terraform
// while the answers leave it out.
func (m *clientModel) fromAPI(ctx context.Context, c *mgmt.AppClient) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(c.ClientID)
	m.ClientID = types.StringValue(c.ClientID)
	m.Name = types.StringPointerValue(c.Name)
	m.Description = flex.StringOr(c.Description, "")
	m.AppType = types.StringPointerValue(c.AppType)
	m.LogoURI = types.StringPointerValue(c.LogoURI)
	m.IsFirstParty = flex.BoolOr(c.IsFirstParty, true)
	m.IsTokenEndpointIPHeaderTrusted = flex.BoolOr(c.IsTokenEndpointIPHeaderTrusted, false)
	m.OIDCConformant = flex.BoolOr(c.OIDCConformant, false)
	m.Callbacks = flex.ListOf(c.Callbacks)
	m.AllowedOrigins = flex.ListOf(c.AllowedOrigins)
	m.WebOrigins = flex.ListOf(c.WebOrigins)
	m.ClientAliases = flex.ListOf(c.ClientAliases)
	m.AllowedClients = flex.ListOf(c.AllowedClients)
	m.AllowedLogoutURLs = flex.ListOf(c.AllowedLogoutURLs)
	switch {
	case c.GrantTypes != nil:
		m.GrantTypes = flex.ListOrEmpty(c.GrantTypes)
	case m.GrantTypes.IsUnknown() || m.GrantTypes.IsNull():
		m.GrantTypes = types.ListNull(types.StringType)
	}
	m.JWTConfiguration = jwtFromAPI(ctx, c.JWTConfiguration, &diags)
	m.SSO = types.BoolPointerValue(c.SSO)
	m.SSODisabled = flex.BoolOr(c.SSODisabled, false)
	m.CrossOriginAuthentication = flex.BoolOr(c.CrossOriginAuthentication, false)
	m.CrossOriginLoc = types.StringPointerValue(c.CrossOriginLoc)
	m.CustomLoginPageOn = flex.BoolOr(c.CustomLoginPageOn, true)
	m.CustomLoginPage = types.StringPointerValue(c.CustomLoginPage)
	m.CustomLoginPagePreview = types.StringPointerValue(c.CustomLoginPagePreview)
	m.FormTemplate = types.StringPointerValue(c.FormTemplate)
	m.TokenEndpointAuthMethod = types.StringPointerValue(c.TokenEndpointAuthMethod)
	m.ClientMetadata = flex.MapOf(c.ClientMetadata)
	m.InitiateLoginURI = types.StringPointerValue(c.InitiateLoginURI)
	m.NativeSocialLogin = socialFromAPI(c.NativeSocialLogin)
	m.RefreshToken = refreshFromAPI(ctx, c.RefreshToken, &diags)
	m.OrganizationUsage = types.StringPointerValue(c.OrganizationUsage)
	m.OrganizationRequireBehavior = types.StringPointerValue(c.OrganizationRequireBehavior)
	m.OrganizationDiscoveryMethods = flex.ListOf(c.OrganizationDiscoveryMethods)
	m.ClientAuthenticationMethods = authFromAPI(ctx, c.ClientAuthenticationMethods, &diags)
	m.RequirePushedAuthorizationRequests = flex.BoolOr(c.RequirePushedAuthorizationRequests, false)
	m.RequireProofOfPossession = flex.BoolOr(c.RequireProofOfPossession, false)
	m.OIDCLogout = logoutFromAPI(ctx, c.OIDCLogout, &diags)
	m.ComplianceLevel = types.StringPointerValue(c.ComplianceLevel)
	m.DefaultOrganization = defOrgFromAPI(ctx, c.DefaultOrganization, &diags)
	m.TokenExchange = exchangeFromAPI(ctx, c.TokenExchange, &diags)
	m.TokenQuota = quotaFromAPI(ctx, c.TokenQuota, &diags)
	m.SessionTransfer = transferFromAPI(ctx, c.SessionTransfer, &diags)
	m.ResourceServerIdentifier = types.StringPointerValue(c.ResourceServerIdentifier)
	m.SkipNonVerifiableCallbackPrompt = types.BoolPointerValue(c.SkipNonVerifiableCallbackURIConfirmationPrompt)
	m.AsyncApprovalNotificationChannels = flex.ListOf(c.AsyncApprovalNotificationChannels)
	m.ThirdPartySecurityMode = types.StringPointerValue(c.ThirdPartySecurityMode)
	m.RedirectionPolicy = types.StringPointerValue(c.RedirectionPolicy)
	m.FedCMLogin = fedcmFromAPI(c.FedCMLogin)
	m.IdentityAssertionAuthorizationGrant = idjagFromAPI(c.IdentityAssertionAuthorizationGrant)
	return diags
}

// fromAPI is clientModel.fromAPI for the resource: the secret goes into
// the state only with client_secret_in_state, and only one the API shows
// (a read without read:client_keys shows none: the prior one is kept).
// The two switches are the configuration's, never the API's.
func (m *resourceModel) fromAPI(ctx context.Context, c *mgmt.AppClient) diag.Diagnostics {
	diags := m.clientModel.fromAPI(ctx, c)
	switch {
	case !m.ClientSecretInState.ValueBool():
		m.ClientSecret = types.StringNull()
	case c.ClientSecret != "":
		m.ClientSecret = types.StringValue(c.ClientSecret)
	case m.ClientSecret.IsUnknown():
		m.ClientSecret = types.StringNull()
	}
	if m.ClientSecretInState.IsNull() || m.ClientSecretInState.IsUnknown() {
		m.ClientSecretInState = types.BoolValue(false)
	}
	return diags
}

// allowsProfileType reports whether the model's token_exchange allows t
// (false when unknown).
func (m clientModel) allowsProfileType(ctx context.Context, t string) bool {
	var diags diag.Diagnostics
	e, ok := flex.ObjectAs[exchangeModel](ctx, m.TokenExchange, &diags)
	return ok && slices.Contains(flex.Strings(ctx, e.AllowAnyProfileOfType, &diags), t)
}
