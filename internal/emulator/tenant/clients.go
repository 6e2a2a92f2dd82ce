package tenant

import (
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// ClientRecord is a stored client: its wire fields but client_id and
// client_secret, and what only the emulator knows about it.
type ClientRecord struct {
	ID     string                     `json:"client_id"`
	Secret string                     `json:"client_secret"`
	Fields map[string]json.RawMessage `json:"fields"`
	// Global clients may create token exchange profiles; TokenLifetime
	// overrides the lifetime of the Management API's tokens.
	Global        bool          `json:"global,omitempty"`
	TokenLifetime time.Duration `json:"token_lifetime,omitempty"`
	Seq           int64         `json:"seq"`
}

func (c *ClientRecord) Clone() *ClientRecord {
	x := *c
	x.Fields = make(map[string]json.RawMessage, len(c.Fields))
	for k, v := range c.Fields {
		x.Fields[k] = v // a stored value is replaced, never changed in place
	}
	return &x
}

// clientKeyOrder is the order of the keys in a client answer: as observed
// where the recordings show two keys together [O], else the SDK's order.
var clientKeyOrder = []string{
	"name", "description", "client_id", "client_secret", "app_type", "logo_uri", "is_first_party",
	"is_token_endpoint_ip_header_trusted", "oidc_conformant", "callbacks", "allowed_origins", "web_origins", "client_aliases",
	"allowed_clients", "allowed_logout_urls", "jwt_configuration", "signing_keys", "encryption_key", "sso", "sso_disabled",
	"cross_origin_authentication", "cross_origin_loc", "grant_types", "custom_login_page_on", "custom_login_page",
	"custom_login_page_preview", "form_template", "token_endpoint_auth_method", "client_metadata", "mobile", "initiate_login_uri",
	"native_social_login", "refresh_token", "oidc_backchannel_logout", "oidc_logout", "organization_usage", "default_organization",
	"organization_require_behavior", "organization_discovery_methods", "client_authentication_methods",
	"require_pushed_authorization_requests", "require_proof_of_possession", "signed_request_object", "compliance_level",
	"token_exchange", "token_quota", "session_transfer", "resource_server_identifier", "async_approval_notification_channels",
	"addons", "express_configuration", "my_organization_configuration", "third_party_security_mode", "redirection_policy",
	"fedcm_login", "identity_assertion_authorization_grant", "token_vault_privileged_access",
	"skip_non_verifiable_callback_uri_confirmation_prompt", "external_client_id", "external_metadata_type",
	"external_metadata_created_by", "jwks_uri",
}

// DefaultGrantTypes are a new client's grant types [O].
var DefaultGrantTypes = []string{"authorization_code", "implicit", "refresh_token", "client_credentials"}

// The tenant's refresh token settings for a new client [O].
const (
	DefaultRefreshLifetime     = 2592000
	DefaultRefreshIdleLifetime = 1296000
)

// NewClient is a client with the tenant's defaults for a create that sends
// none of them [O]; appType changes a few, as recorded for
// resource_server and express_configuration clients.
func (s *Tenant) NewClient(appType string) *ClientRecord {
	c := &ClientRecord{ID: wire.RandomString(32), Secret: wire.RandomSecret(), Fields: map[string]json.RawMessage{}, Seq: s.St.Next()}
	f := c.Fields
	f["is_first_party"] = wire.Raw(true)
	f["is_token_endpoint_ip_header_trusted"] = wire.Raw(false)
	f["oidc_conformant"] = wire.Raw(false)
	f["jwt_configuration"] = wire.Raw(wire.Ordered{{"secret_encoded", false}, {"lifetime_in_seconds", 36000}})
	f["signing_keys"] = wire.Raw([]map[string]string{{"cert": s.SigningCert}})
	f["sso_disabled"] = wire.Raw(false)
	f["cross_origin_authentication"] = wire.Raw(false)
	f["grant_types"] = wire.Raw(DefaultGrantTypes)
	f["custom_login_page_on"] = wire.Raw(true)
	f["refresh_token"] = wire.Raw(wire.Ordered{{"rotation_type", "non-rotating"}, {"expiration_type", "non-expiring"}, {"leeway", 0},
		{"token_lifetime", DefaultRefreshLifetime}, {"infinite_token_lifetime", true}, {"infinite_idle_token_lifetime", true},
		{"idle_token_lifetime", DefaultRefreshIdleLifetime}})
	switch appType {
	case "resource_server":
		f["oidc_conformant"] = wire.Raw(true)
		f["jwt_configuration"] = wire.Raw(wire.Ordered{{"secret_encoded", false}, {"alg", "RS256"}})
		f["grant_types"] = wire.Raw([]string{})
	case "express_configuration":
		f["oidc_conformant"] = wire.Raw(true)
		f["jwt_configuration"] = wire.Raw(wire.Ordered{{"secret_encoded", false}, {"alg", "RS256"}})
		f["grant_types"] = wire.Raw([]string{"authorization_code", "client_credentials"})
		f["callbacks"] = wire.Raw([]string{"https://system-admin.okta.com/admin/app/generic/oauth20redirect"})
		f["organization_usage"] = wire.Raw("require")
		f["organization_require_behavior"] = wire.Raw("pre_login_prompt")
		f["client_authentication_methods"] = wire.Raw(map[string]any{"private_key_jwt": map[string]any{"credentials": []any{}}})
		f["async_approval_notification_channels"] = wire.Raw([]string{"guardian-push"})
	}
	return c
}

func (c *ClientRecord) Flag(k string) bool {
	var v bool
	_ = json.Unmarshal(c.Fields[k], &v)
	return v
}

func (c *ClientRecord) Str(k string) string {
	var v string
	_ = json.Unmarshal(c.Fields[k], &v)
	return v
}

func (c *ClientRecord) Strings(k string) []string {
	var v []string
	_ = json.Unmarshal(c.Fields[k], &v)
	return v
}

func (c *ClientRecord) AllowsProfileType(t string) bool {
	var te struct {
		Types []string `json:"allow_any_profile_of_type"`
	}
	_ = json.Unmarshal(c.Fields["token_exchange"], &te)
	return slices.Contains(te.Types, t)
}

// View is the client as the API shows it; the secret only to a caller
// that may read it (see clientSecretVisible).
func (c *ClientRecord) View(secret bool) wire.Ordered {
	out := wire.Ordered{}
	seen := map[string]bool{}
	for _, k := range clientKeyOrder {
		seen[k] = true
		switch k {
		case "client_id":
			out = append(out, wire.Ordered{{k, c.ID}}...)
		case "client_secret":
			if secret {
				out = append(out, wire.Ordered{{k, c.Secret}}...)
			}
		default:
			if v, ok := c.Fields[k]; ok {
				out = append(out, wire.Ordered{{k, v}}...)
			}
		}
	}
	var rest []string
	for k := range c.Fields {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, wire.Ordered{{k, c.Fields[k]}}...)
	}
	return out
}
