package mgmt

import (
	"context"
	"iter"
	"net/http"
	"net/url"
)

// AppClient is an application (a client of the tenant), with the fields
// the provider manages (reference: clients-and-grants.md, Client [S]).
// Optional fields are pointers: nil is "not sent" on writes and "absent"
// on reads. Families of fields the provider leaves to other tools (addons,
// mobile, signed_request_object, ...) have no field here, so they are
// never sent.
type AppClient struct {
	ClientID string `json:"client_id,omitempty"`
	// ClientSecret is read-only here: the tenant generates it. A read shows
	// it only to credentials with read:client_keys [R].
	ClientSecret string `json:"client_secret,omitempty"`

	Name                                           *string                      `json:"name,omitempty"`
	Description                                    *string                      `json:"description,omitempty"`
	AppType                                        *string                      `json:"app_type,omitempty"`
	LogoURI                                        *string                      `json:"logo_uri,omitempty"`
	IsFirstParty                                   *bool                        `json:"is_first_party,omitempty"`
	IsTokenEndpointIPHeaderTrusted                 *bool                        `json:"is_token_endpoint_ip_header_trusted,omitempty"`
	OIDCConformant                                 *bool                        `json:"oidc_conformant,omitempty"`
	Callbacks                                      *[]string                    `json:"callbacks,omitempty"`
	AllowedOrigins                                 *[]string                    `json:"allowed_origins,omitempty"`
	WebOrigins                                     *[]string                    `json:"web_origins,omitempty"`
	ClientAliases                                  *[]string                    `json:"client_aliases,omitempty"`
	AllowedClients                                 *[]string                    `json:"allowed_clients,omitempty"`
	AllowedLogoutURLs                              *[]string                    `json:"allowed_logout_urls,omitempty"`
	JWTConfiguration                               *JWTConfiguration            `json:"jwt_configuration,omitempty"`
	SSO                                            *bool                        `json:"sso,omitempty"`
	SSODisabled                                    *bool                        `json:"sso_disabled,omitempty"`
	CrossOriginAuthentication                      *bool                        `json:"cross_origin_authentication,omitempty"`
	CrossOriginLoc                                 *string                      `json:"cross_origin_loc,omitempty"`
	GrantTypes                                     *[]string                    `json:"grant_types,omitempty"`
	CustomLoginPageOn                              *bool                        `json:"custom_login_page_on,omitempty"`
	CustomLoginPage                                *string                      `json:"custom_login_page,omitempty"`
	CustomLoginPagePreview                         *string                      `json:"custom_login_page_preview,omitempty"`
	FormTemplate                                   *string                      `json:"form_template,omitempty"`
	TokenEndpointAuthMethod                        *string                      `json:"token_endpoint_auth_method,omitempty"`
	ClientMetadata                                 *map[string]string           `json:"client_metadata,omitempty"`
	InitiateLoginURI                               *string                      `json:"initiate_login_uri,omitempty"`
	NativeSocialLogin                              *NativeSocialLogin           `json:"native_social_login,omitempty"`
	RefreshToken                                   *RefreshToken                `json:"refresh_token,omitempty"`
	OrganizationUsage                              *string                      `json:"organization_usage,omitempty"`
	OrganizationRequireBehavior                    *string                      `json:"organization_require_behavior,omitempty"`
	OrganizationDiscoveryMethods                   *[]string                    `json:"organization_discovery_methods,omitempty"`
	RequirePushedAuthorizationRequests             *bool                        `json:"require_pushed_authorization_requests,omitempty"`
	RequireProofOfPossession                       *bool                        `json:"require_proof_of_possession,omitempty"`
	OIDCLogout                                     *OIDCLogout                  `json:"oidc_logout,omitempty"`
	ComplianceLevel                                *string                      `json:"compliance_level,omitempty"`
	DefaultOrganization                            *DefaultOrganization         `json:"default_organization,omitempty"`
	TokenExchange                                  *TokenExchange               `json:"token_exchange,omitempty"`
	TokenQuota                                     *TokenQuota                  `json:"token_quota,omitempty"`
	SessionTransfer                                *SessionTransfer             `json:"session_transfer,omitempty"`
	ResourceServerIdentifier                       *string                      `json:"resource_server_identifier,omitempty"`
	SkipNonVerifiableCallbackURIConfirmationPrompt *bool                        `json:"skip_non_verifiable_callback_uri_confirmation_prompt,omitempty"`
	AsyncApprovalNotificationChannels              *[]string                    `json:"async_approval_notification_channels,omitempty"`
	ThirdPartySecurityMode                         *string                      `json:"third_party_security_mode,omitempty"`
	RedirectionPolicy                              *string                      `json:"redirection_policy,omitempty"`
	FedCMLogin                                     *FedCMLogin                  `json:"fedcm_login,omitempty"`
	IdentityAssertionAuthorizationGrant            *IdentityAssertionGrant      `json:"identity_assertion_authorization_grant,omitempty"`
	ClientAuthenticationMethods                    *ClientAuthenticationMethods `json:"client_authentication_methods,omitempty"`
}

// AppClientUpdate is a PATCH /clients/{id} body: only the fields set are
// sent; a Null removes a field the API lets clear. The nested objects are
// sent whole, each with every value the provider knows, so that the
// request gives the same client whether the API replaces or merges them
// (reference: not settled). client_metadata is merged key by key by the
// API, and a null value removes its key [S].
type AppClientUpdate struct {
	Name                                           Patch[string]                 `json:"name,omitzero"`
	Description                                    Patch[string]                 `json:"description,omitzero"`
	AppType                                        Patch[string]                 `json:"app_type,omitzero"`
	LogoURI                                        Patch[string]                 `json:"logo_uri,omitzero"`
	IsFirstParty                                   Patch[bool]                   `json:"is_first_party,omitzero"`
	IsTokenEndpointIPHeaderTrusted                 Patch[bool]                   `json:"is_token_endpoint_ip_header_trusted,omitzero"`
	OIDCConformant                                 Patch[bool]                   `json:"oidc_conformant,omitzero"`
	Callbacks                                      Patch[[]string]               `json:"callbacks,omitzero"`
	AllowedOrigins                                 Patch[[]string]               `json:"allowed_origins,omitzero"`
	WebOrigins                                     Patch[[]string]               `json:"web_origins,omitzero"`
	ClientAliases                                  Patch[[]string]               `json:"client_aliases,omitzero"`
	AllowedClients                                 Patch[[]string]               `json:"allowed_clients,omitzero"`
	AllowedLogoutURLs                              Patch[[]string]               `json:"allowed_logout_urls,omitzero"`
	JWTConfiguration                               Patch[JWTConfiguration]       `json:"jwt_configuration,omitzero"`
	SSO                                            Patch[bool]                   `json:"sso,omitzero"`
	SSODisabled                                    Patch[bool]                   `json:"sso_disabled,omitzero"`
	CrossOriginAuthentication                      Patch[bool]                   `json:"cross_origin_authentication,omitzero"`
	CrossOriginLoc                                 Patch[string]                 `json:"cross_origin_loc,omitzero"`
	GrantTypes                                     Patch[[]string]               `json:"grant_types,omitzero"`
	CustomLoginPageOn                              Patch[bool]                   `json:"custom_login_page_on,omitzero"`
	CustomLoginPage                                Patch[string]                 `json:"custom_login_page,omitzero"`
	CustomLoginPagePreview                         Patch[string]                 `json:"custom_login_page_preview,omitzero"`
	FormTemplate                                   Patch[string]                 `json:"form_template,omitzero"`
	TokenEndpointAuthMethod                        Patch[string]                 `json:"token_endpoint_auth_method,omitzero"`
	ClientMetadata                                 Patch[map[string]*string]     `json:"client_metadata,omitzero"`
	InitiateLoginURI                               Patch[string]                 `json:"initiate_login_uri,omitzero"`
	NativeSocialLogin                              Patch[NativeSocialLogin]      `json:"native_social_login,omitzero"`
	RefreshToken                                   Patch[RefreshToken]           `json:"refresh_token,omitzero"`
	OrganizationUsage                              Patch[string]                 `json:"organization_usage,omitzero"`
	OrganizationRequireBehavior                    Patch[string]                 `json:"organization_require_behavior,omitzero"`
	OrganizationDiscoveryMethods                   Patch[[]string]               `json:"organization_discovery_methods,omitzero"`
	RequirePushedAuthorizationRequests             Patch[bool]                   `json:"require_pushed_authorization_requests,omitzero"`
	RequireProofOfPossession                       Patch[bool]                   `json:"require_proof_of_possession,omitzero"`
	OIDCLogout                                     Patch[OIDCLogout]             `json:"oidc_logout,omitzero"`
	ComplianceLevel                                Patch[string]                 `json:"compliance_level,omitzero"`
	DefaultOrganization                            Patch[DefaultOrganization]    `json:"default_organization,omitzero"`
	TokenExchange                                  Patch[TokenExchange]          `json:"token_exchange,omitzero"`
	TokenQuota                                     Patch[TokenQuota]             `json:"token_quota,omitzero"`
	SessionTransfer                                Patch[SessionTransfer]        `json:"session_transfer,omitzero"`
	SkipNonVerifiableCallbackURIConfirmationPrompt Patch[bool]                   `json:"skip_non_verifiable_callback_uri_confirmation_prompt,omitzero"`
	AsyncApprovalNotificationChannels              Patch[[]string]               `json:"async_approval_notification_channels,omitzero"`
	RedirectionPolicy                              Patch[string]                 `json:"redirection_policy,omitzero"`
	FedCMLogin                                     Patch[FedCMLogin]             `json:"fedcm_login,omitzero"`
	IdentityAssertionAuthorizationGrant            Patch[IdentityAssertionGrant] `json:"identity_assertion_authorization_grant,omitzero"`
}

// JWTConfiguration is how the tenant signs the client's ID tokens.
// Scopes is sent as an empty object to clear it.
type JWTConfiguration struct {
	SecretEncoded     *bool              `json:"secret_encoded,omitempty"`
	Alg               *string            `json:"alg,omitempty"`
	LifetimeInSeconds *int64             `json:"lifetime_in_seconds,omitempty"`
	Scopes            *map[string]string `json:"scopes,omitempty"`
}

// RefreshToken is the client's refresh token policy. Policies is sent as
// an empty list to clear it.
type RefreshToken struct {
	RotationType              *string               `json:"rotation_type,omitempty"`
	ExpirationType            *string               `json:"expiration_type,omitempty"`
	Leeway                    *int64                `json:"leeway,omitempty"`
	TokenLifetime             *int64                `json:"token_lifetime,omitempty"`
	InfiniteTokenLifetime     *bool                 `json:"infinite_token_lifetime,omitempty"`
	InfiniteIdleTokenLifetime *bool                 `json:"infinite_idle_token_lifetime,omitempty"`
	IdleTokenLifetime         *int64                `json:"idle_token_lifetime,omitempty"`
	Policies                  *[]RefreshTokenPolicy `json:"policies,omitempty"`
}

// RefreshTokenPolicy lets a refresh token get access tokens for another API.
type RefreshTokenPolicy struct {
	Audience string   `json:"audience"`
	Scope    []string `json:"scope"`
}

// NativeSocialLogin turns native social login on per identity provider.
type NativeSocialLogin struct {
	Apple    *Enabled `json:"apple,omitempty"`
	Facebook *Enabled `json:"facebook,omitempty"`
	Google   *Enabled `json:"google,omitempty"`
}

// Enabled is an {"enabled": bool} switch.
type Enabled struct {
	Enabled bool `json:"enabled"`
}

// OIDCLogout is the client's OIDC back-channel logout.
type OIDCLogout struct {
	BackchannelLogoutURLs            []string               `json:"backchannel_logout_urls"`
	BackchannelLogoutInitiators      *LogoutInitiators      `json:"backchannel_logout_initiators,omitempty"`
	BackchannelLogoutSessionMetadata *LogoutSessionMetadata `json:"backchannel_logout_session_metadata,omitempty"`
}

// LogoutInitiators says which events start a back-channel logout.
type LogoutInitiators struct {
	Mode               string    `json:"mode"`
	SelectedInitiators *[]string `json:"selected_initiators,omitempty"`
}

// LogoutSessionMetadata says whether the logout token carries the session's metadata.
type LogoutSessionMetadata struct {
	Include bool `json:"include"`
}

// DefaultOrganization is the organization of client credentials tokens
// that name none.
type DefaultOrganization struct {
	Flows          []string `json:"flows"`
	OrganizationID string   `json:"organization_id"`
}

// TokenExchange lists the token exchange profile types the client may use.
type TokenExchange struct {
	AllowAnyProfileOfType []string `json:"allow_any_profile_of_type"`
}

// TokenQuota limits the client credentials tokens the client gets.
type TokenQuota struct {
	ClientCredentials TokenQuotaLimits `json:"client_credentials"`
}

// TokenQuotaLimits are a token quota's limits.
type TokenQuotaLimits struct {
	Enforce *bool  `json:"enforce,omitempty"`
	PerDay  *int64 `json:"per_day,omitempty"`
	PerHour *int64 `json:"per_hour,omitempty"`
}

// SessionTransfer is the native-to-web session transfer settings.
type SessionTransfer struct {
	CanCreateSessionTransferToken *bool       `json:"can_create_session_transfer_token,omitempty"`
	AllowedAuthenticationMethods  *[]string   `json:"allowed_authentication_methods,omitempty"`
	EnforceDeviceBinding          *string     `json:"enforce_device_binding,omitempty"`
	AllowRefreshToken             *bool       `json:"allow_refresh_token,omitempty"`
	EnforceOnlineRefreshTokens    *bool       `json:"enforce_online_refresh_tokens,omitempty"`
	EnforceCascadeRevocation      *bool       `json:"enforce_cascade_revocation,omitempty"`
	Delegation                    *Delegation `json:"delegation,omitempty"`
}

// Delegation is a session transfer's delegated access.
type Delegation struct {
	AllowDelegatedAccess *bool   `json:"allow_delegated_access,omitempty"`
	EnforceDeviceBinding *string `json:"enforce_device_binding,omitempty"`
}

// FedCMLogin is the Federated Credential Management login.
type FedCMLogin struct {
	Google *FedCMGoogle `json:"google,omitempty"`
}

// FedCMGoogle turns the Google FedCM prompt on.
type FedCMGoogle struct {
	IsEnabled bool `json:"is_enabled"`
}

// IdentityAssertionGrant turns the ID-JAG exchange on.
type IdentityAssertionGrant struct {
	Active bool `json:"active"`
}

// ClientAuthenticationMethods are the credentials the client authenticates
// with; a read shows their ids only [O].
type ClientAuthenticationMethods struct {
	PrivateKeyJWT           *CredentialRefs `json:"private_key_jwt,omitempty"`
	TLSClientAuth           *CredentialRefs `json:"tls_client_auth,omitempty"`
	SelfSignedTLSClientAuth *CredentialRefs `json:"self_signed_tls_client_auth,omitempty"`
}

// CredentialRefs names a method's credentials.
type CredentialRefs struct {
	Credentials []CredentialRef `json:"credentials"`
}

// CredentialRef is one credential's id.
type CredentialRef struct {
	ID string `json:"id"`
}

// AppClientList is one offset page of clients.
type AppClientList struct {
	Clients []AppClient `json:"clients"`
	Start   int         `json:"start"`
	Limit   int         `json:"limit"`
	Total   int         `json:"total"`
}

// CreateClient creates a client; the answer carries the secret the tenant
// generated [O].
func (c *Client) CreateClient(ctx context.Context, in AppClient) (*AppClient, error) {
	in.ClientID, in.ClientSecret, in.ClientAuthenticationMethods = "", "", nil
	var out AppClient
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/clients", body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ClientID, "POST /clients")
}

// GetClient reads a client; its secret only with read:client_keys.
func (c *Client) GetClient(ctx context.Context, id string) (*AppClient, error) {
	var out AppClient
	path := "/clients/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ClientID, "GET "+path)
}

// UpdateClient PATCHes the fields set in in; the API answers the full
// client [O].
func (c *Client) UpdateClient(ctx context.Context, id string, in AppClientUpdate) (*AppClient, error) {
	var out AppClient
	path := "/clients/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ClientID, "PATCH "+path)
}

// DeleteClient deletes a client; one already gone is success (the API
// answers 204 [O], and a 404 means the same).
func (c *Client) DeleteClient(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/clients/" + escape(id)}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// RotateClientSecret gives the client a new secret and returns the client
// with it [O].
func (c *Client) RotateClientSecret(ctx context.Context, id string) (*AppClient, error) {
	var out AppClient
	path := "/clients/" + escape(id) + "/rotate-secret"
	if _, err := c.do(ctx, request{method: http.MethodPost, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ClientID, "POST "+path)
}

// ClientsPage reads one page (0-based) of 100 of the tenant's clients: more
// says whether another follows, total is how many the tenant holds.
func (c *Client) ClientsPage(ctx context.Context, page int, filter url.Values) (clients []AppClient, more bool, total int, err error) {
	var l AppClientList
	if err := c.listPage(ctx, "/clients", cloneValues(filter), page, 100, &l); err != nil {
		return nil, false, 0, err
	}
	more, err = hasNext("/clients", page, 100, l.Start, l.Limit, l.Total, len(l.Clients))
	return l.Clients, more, l.Total, err
}

// EachClient yields the tenant's clients that match filter (the list's
// query: app_type, is_first_party, is_global), page by page; an error
// ends it.
func (c *Client) EachClient(ctx context.Context, filter url.Values) iter.Seq2[*AppClient, error] {
	return func(yield func(*AppClient, error) bool) {
		for page := 0; ; page++ {
			clients, more, _, err := c.ClientsPage(ctx, page, filter)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range clients {
				if !yield(&clients[i], nil) {
					return
				}
			}
			if !more {
				return
			}
		}
	}
}

// FindClientsByName returns the clients named name exactly. Names are not
// unique, and the list has no filter by name, so it walks the list asking
// only for each client's id and name ([O query]: fields, include_fields),
// and reads each match by id. A tenant that answers whole clients all the
// same gives the same result.
func (c *Client) FindClientsByName(ctx context.Context, name string) ([]AppClient, error) {
	var ids []string
	for cl, err := range c.EachClient(ctx, url.Values{"fields": {"client_id,name"}, "include_fields": {"true"}}) {
		if err != nil {
			return nil, err
		}
		if cl.Name != nil && *cl.Name == name {
			ids = append(ids, cl.ClientID)
		}
	}
	out := make([]AppClient, 0, len(ids))
	for _, id := range ids {
		cl, err := c.GetClient(ctx, id)
		if IsNotFound(err) {
			continue // deleted since the list
		}
		if err != nil {
			return nil, err
		}
		out = append(out, *cl)
	}
	return out, nil
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// Ptr is a pointer to v, for the optional fields of a request.
func Ptr[T any](v T) *T { return &v }
