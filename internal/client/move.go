package client

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ resource.ResourceWithMoveState = (*clientResource)(nil)

// one is a block of the incumbent's state: a list of at most one.
type one[T any] []T

func (o one[T]) get() (T, bool) {
	if len(o) == 1 {
		return o[0], true
	}
	var zero T
	return zero, false
}

// incumbentClient is the state of the incumbent's auth0_client, as far as
// this resource manages it: its nested objects are blocks (lists of at
// most one), and unset strings are "".
type incumbentClient struct {
	ClientID                           string            `json:"client_id"`
	Name                               string            `json:"name"`
	Description                        string            `json:"description"`
	AppType                            string            `json:"app_type"`
	LogoURI                            string            `json:"logo_uri"`
	IsFirstParty                       *bool             `json:"is_first_party"`
	IsTokenEndpointIPHeaderTrusted     *bool             `json:"is_token_endpoint_ip_header_trusted"`
	OIDCConformant                     *bool             `json:"oidc_conformant"`
	Callbacks                          []string          `json:"callbacks"`
	AllowedOrigins                     []string          `json:"allowed_origins"`
	WebOrigins                         []string          `json:"web_origins"`
	ClientAliases                      []string          `json:"client_aliases"`
	AllowedClients                     []string          `json:"allowed_clients"`
	AllowedLogoutURLs                  []string          `json:"allowed_logout_urls"`
	GrantTypes                         []string          `json:"grant_types"`
	SSO                                *bool             `json:"sso"`
	SSODisabled                        *bool             `json:"sso_disabled"`
	CrossOriginAuth                    *bool             `json:"cross_origin_auth"`
	CrossOriginLoc                     string            `json:"cross_origin_loc"`
	CustomLoginPageOn                  *bool             `json:"custom_login_page_on"`
	CustomLoginPage                    string            `json:"custom_login_page"`
	FormTemplate                       string            `json:"form_template"`
	ClientMetadata                     map[string]string `json:"client_metadata"`
	InitiateLoginURI                   string            `json:"initiate_login_uri"`
	OrganizationUsage                  string            `json:"organization_usage"`
	OrganizationRequireBehavior        string            `json:"organization_require_behavior"`
	OrganizationDiscoveryMethods       []string          `json:"organization_discovery_methods"`
	RequirePushedAuthorizationRequests *bool             `json:"require_pushed_authorization_requests"`
	RequireProofOfPossession           *bool             `json:"require_proof_of_possession"`
	ComplianceLevel                    string            `json:"compliance_level"`
	ResourceServerIdentifier           string            `json:"resource_server_identifier"`
	// A string in the incumbent ("true", "false", or "").
	SkipNonVerifiablePrompt           string   `json:"skip_non_verifiable_callback_uri_confirmation_prompt"`
	AsyncApprovalNotificationChannels []string `json:"async_approval_notification_channels"`
	ThirdPartySecurityMode            string   `json:"third_party_security_mode"`
	RedirectionPolicy                 string   `json:"redirection_policy"`
	JWTConfiguration                  one[struct {
		Alg               string            `json:"alg"`
		LifetimeInSeconds *int64            `json:"lifetime_in_seconds"`
		SecretEncoded     *bool             `json:"secret_encoded"`
		Scopes            map[string]string `json:"scopes"`
	}] `json:"jwt_configuration"`
	RefreshToken one[struct {
		RotationType              string `json:"rotation_type"`
		ExpirationType            string `json:"expiration_type"`
		Leeway                    *int64 `json:"leeway"`
		TokenLifetime             *int64 `json:"token_lifetime"`
		InfiniteTokenLifetime     *bool  `json:"infinite_token_lifetime"`
		IdleTokenLifetime         *int64 `json:"idle_token_lifetime"`
		InfiniteIdleTokenLifetime *bool  `json:"infinite_idle_token_lifetime"`
		Policies                  []struct {
			Audience string   `json:"audience"`
			Scope    []string `json:"scope"`
		} `json:"policies"`
	}] `json:"refresh_token"`
	NativeSocialLogin one[struct {
		Apple    one[mgmt.Enabled] `json:"apple"`
		Facebook one[mgmt.Enabled] `json:"facebook"`
		Google   one[mgmt.Enabled] `json:"google"`
	}] `json:"native_social_login"`
	OIDCLogout one[struct {
		URLs       []string `json:"backchannel_logout_urls"`
		Initiators one[struct {
			Mode               string   `json:"mode"`
			SelectedInitiators []string `json:"selected_initiators"`
		}] `json:"backchannel_logout_initiators"`
		SessionMetadata one[mgmt.LogoutSessionMetadata] `json:"backchannel_logout_session_metadata"`
	}] `json:"oidc_logout"`
	DefaultOrganization one[struct {
		Disable        bool     `json:"disable"`
		Flows          []string `json:"flows"`
		OrganizationID string   `json:"organization_id"`
	}] `json:"default_organization"`
	TokenExchange one[mgmt.TokenExchange] `json:"token_exchange"`
	TokenQuota    one[struct {
		ClientCredentials one[mgmt.TokenQuotaLimits] `json:"client_credentials"`
	}] `json:"token_quota"`
	SessionTransfer one[struct {
		mgmt.SessionTransfer
		Delegation one[mgmt.Delegation] `json:"delegation"`
	}] `json:"session_transfer"`
	FedCMLogin one[struct {
		Google one[mgmt.FedCMGoogle] `json:"google"`
	}] `json:"fedcm_login"`
	IdentityAssertionAuthorizationGrant one[mgmt.IdentityAssertionGrant] `json:"identity_assertion_authorization_grant"`
}

func nonEmptyList(v []string) *[]string {
	if len(v) == 0 {
		return nil
	}
	return &v
}

// toAPI is the client the incumbent's state describes.
func (s incumbentClient) toAPI() *mgmt.AppClient {
	c := &mgmt.AppClient{
		ClientID:                           s.ClientID,
		Name:                               framework.NonEmpty(s.Name),
		Description:                        framework.NonEmpty(s.Description),
		AppType:                            framework.NonEmpty(s.AppType),
		LogoURI:                            framework.NonEmpty(s.LogoURI),
		IsFirstParty:                       s.IsFirstParty,
		IsTokenEndpointIPHeaderTrusted:     s.IsTokenEndpointIPHeaderTrusted,
		OIDCConformant:                     s.OIDCConformant,
		Callbacks:                          nonEmptyList(s.Callbacks),
		AllowedOrigins:                     nonEmptyList(s.AllowedOrigins),
		WebOrigins:                         nonEmptyList(s.WebOrigins),
		ClientAliases:                      nonEmptyList(s.ClientAliases),
		AllowedClients:                     nonEmptyList(s.AllowedClients),
		AllowedLogoutURLs:                  nonEmptyList(s.AllowedLogoutURLs),
		GrantTypes:                         nonEmptyList(s.GrantTypes),
		SSO:                                s.SSO,
		SSODisabled:                        s.SSODisabled,
		CrossOriginAuthentication:          s.CrossOriginAuth,
		CrossOriginLoc:                     framework.NonEmpty(s.CrossOriginLoc),
		CustomLoginPageOn:                  s.CustomLoginPageOn,
		CustomLoginPage:                    framework.NonEmpty(s.CustomLoginPage),
		FormTemplate:                       framework.NonEmpty(s.FormTemplate),
		InitiateLoginURI:                   framework.NonEmpty(s.InitiateLoginURI),
		OrganizationUsage:                  framework.NonEmpty(s.OrganizationUsage),
		OrganizationRequireBehavior:        framework.NonEmpty(s.OrganizationRequireBehavior),
		OrganizationDiscoveryMethods:       nonEmptyList(s.OrganizationDiscoveryMethods),
		RequirePushedAuthorizationRequests: s.RequirePushedAuthorizationRequests,
		RequireProofOfPossession:           s.RequireProofOfPossession,
		ComplianceLevel:                    framework.NonEmpty(s.ComplianceLevel),
		ResourceServerIdentifier:           framework.NonEmpty(s.ResourceServerIdentifier),
		AsyncApprovalNotificationChannels:  nonEmptyList(s.AsyncApprovalNotificationChannels),
		ThirdPartySecurityMode:             framework.NonEmpty(s.ThirdPartySecurityMode),
		RedirectionPolicy:                  framework.NonEmpty(s.RedirectionPolicy),
	}
	if len(s.ClientMetadata) > 0 {
		c.ClientMetadata = &s.ClientMetadata
	}
	if v, err := strconv.ParseBool(s.SkipNonVerifiablePrompt); err == nil {
		c.SkipNonVerifiableCallbackURIConfirmationPrompt = &v
	}
	if j, ok := s.JWTConfiguration.get(); ok {
		c.JWTConfiguration = &mgmt.JWTConfiguration{Alg: framework.NonEmpty(j.Alg), LifetimeInSeconds: j.LifetimeInSeconds, SecretEncoded: j.SecretEncoded}
		if len(j.Scopes) > 0 {
			c.JWTConfiguration.Scopes = &j.Scopes
		}
	}
	if r, ok := s.RefreshToken.get(); ok {
		c.RefreshToken = &mgmt.RefreshToken{
			RotationType: framework.NonEmpty(r.RotationType), ExpirationType: framework.NonEmpty(r.ExpirationType), Leeway: r.Leeway,
			TokenLifetime: r.TokenLifetime, InfiniteTokenLifetime: r.InfiniteTokenLifetime, IdleTokenLifetime: r.IdleTokenLifetime,
			InfiniteIdleTokenLifetime: r.InfiniteIdleTokenLifetime,
		}
		if len(r.Policies) > 0 {
			policies := make([]mgmt.RefreshTokenPolicy, 0, len(r.Policies))
			for _, p := range r.Policies {
				policies = append(policies, mgmt.RefreshTokenPolicy{Audience: p.Audience, Scope: p.Scope})
			}
			c.RefreshToken.Policies = &policies
		}
	}
	if n, ok := s.NativeSocialLogin.get(); ok {
		side := func(o one[mgmt.Enabled]) *mgmt.Enabled {
			if e, ok := o.get(); ok {
				return &e
			}
			return nil
		}
		c.NativeSocialLogin = &mgmt.NativeSocialLogin{Apple: side(n.Apple), Facebook: side(n.Facebook), Google: side(n.Google)}
	}
	if l, ok := s.OIDCLogout.get(); ok {
		c.OIDCLogout = &mgmt.OIDCLogout{BackchannelLogoutURLs: l.URLs}
		if i, ok := l.Initiators.get(); ok {
			c.OIDCLogout.BackchannelLogoutInitiators = &mgmt.LogoutInitiators{Mode: i.Mode, SelectedInitiators: nonEmptyList(i.SelectedInitiators)}
		}
		if m, ok := l.SessionMetadata.get(); ok {
			c.OIDCLogout.BackchannelLogoutSessionMetadata = &m
		}
	}
	if d, ok := s.DefaultOrganization.get(); ok && !d.Disable && d.OrganizationID != "" {
		c.DefaultOrganization = &mgmt.DefaultOrganization{Flows: d.Flows, OrganizationID: d.OrganizationID}
	}
	if t, ok := s.TokenExchange.get(); ok {
		c.TokenExchange = &t
	}
	if q, ok := s.TokenQuota.get(); ok {
		if l, ok := q.ClientCredentials.get(); ok {
			c.TokenQuota = &mgmt.TokenQuota{ClientCredentials: l}
		}
	}
	if t, ok := s.SessionTransfer.get(); ok {
		st := t.SessionTransfer
		if d, ok := t.Delegation.get(); ok {
			st.Delegation = &d
		}
		c.SessionTransfer = &st
	}
	if f, ok := s.FedCMLogin.get(); ok {
		if g, ok := f.Google.get(); ok {
			c.FedCMLogin = &mgmt.FedCMLogin{Google: &g}
		}
	}
	if g, ok := s.IdentityAssertionAuthorizationGrant.get(); ok {
		c.IdentityAssertionAuthorizationGrant = &g
	}
	return c
}

// MoveState takes over an auth0_client (a moved block). Its blocks become
// objects; the fields this resource leaves alone (addons, mobile, ...)
// stay in the tenant as they are. The refresh that follows the move reads
// the tenant. The incumbent keeps no client secret in this state.
func (r *clientResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_client",
		func(ctx context.Context, src incumbentClient, resp *resource.MoveStateResponse) {
			m := resourceModel{ClientSecretInState: types.BoolValue(false), ClientSecret: types.StringNull()}
			resp.Diagnostics.Append(m.fromAPI(ctx, src.toAPI())...)
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, framework.IDIdentity{ID: types.StringValue(src.ClientID)}, &resp.Diagnostics)
		})}
}
