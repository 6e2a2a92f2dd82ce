package resourceserver

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ resource.ResourceWithMoveState = (*serverResource)(nil)

// incumbentServer is the state of the incumbent's auth0_resource_server.
// Its nested objects are blocks (lists of at most one), and an object the
// tenant does not hold is stored as one block with disable = true.
type incumbentServer struct {
	ID                  string `json:"id"`
	Identifier          string `json:"identifier"`
	Name                string `json:"name"`
	SigningAlg          string `json:"signing_alg"`
	SigningSecret       string `json:"signing_secret"`
	AllowOfflineAccess  *bool  `json:"allow_offline_access"`
	TokenLifetime       *int64 `json:"token_lifetime"`
	TokenLifetimeForWeb *int64 `json:"token_lifetime_for_web"`
	SkipConsent         *bool  `json:"skip_consent_for_verifiable_first_party_clients"`
	EnforcePolicies     *bool  `json:"enforce_policies"`
	TokenDialect        string `json:"token_dialect"`
	AllowOnlineAccess   *bool  `json:"allow_online_access"`
	EphemeralSessions   *bool  `json:"allow_online_access_with_ephemeral_sessions"`
	ConsentPolicy       string `json:"consent_policy"`
	SubjectTypeAuth     []struct {
		User   []mgmt.SubjectTypePolicy `json:"user"`
		Client []mgmt.SubjectTypePolicy `json:"client"`
	} `json:"subject_type_authorization"`
	AuthorizationDetails []struct {
		Type    string `json:"type"`
		Disable bool   `json:"disable"`
	} `json:"authorization_details"`
	ProofOfPossession []struct {
		mgmt.ProofOfPossession
		Disable bool `json:"disable"`
	} `json:"proof_of_possession"`
	TokenEncryption []struct {
		Format        string `json:"format"`
		Disable       bool   `json:"disable"`
		EncryptionKey []struct {
			Name      string `json:"name"`
			Algorithm string `json:"algorithm"`
			Kid       string `json:"kid"`
			PEM       string `json:"pem"`
		} `json:"encryption_key"`
	} `json:"token_encryption"`
	AuthorizationPolicy []mgmt.AuthorizationPolicy `json:"authorization_policy"`
}

// toAPI is the API object the incumbent's state describes.
func (s incumbentServer) toAPI() *mgmt.ResourceServer {
	rs := &mgmt.ResourceServer{
		ID:                  s.ID,
		Identifier:          s.Identifier,
		Name:                framework.NonEmpty(s.Name),
		SigningAlg:          framework.NonEmpty(s.SigningAlg),
		SigningSecret:       framework.NonEmpty(s.SigningSecret),
		AllowOfflineAccess:  s.AllowOfflineAccess,
		TokenLifetime:       s.TokenLifetime,
		TokenLifetimeForWeb: s.TokenLifetimeForWeb,
		SkipConsentForVerifiableFirstPartyClients: s.SkipConsent,
		EnforcePolicies:                        s.EnforcePolicies,
		TokenDialect:                           framework.NonEmpty(s.TokenDialect),
		AllowOnlineAccess:                      s.AllowOnlineAccess,
		AllowOnlineAccessWithEphemeralSessions: s.EphemeralSessions,
	}
	// The incumbent stores a cleared consent policy as the text "null".
	if s.ConsentPolicy != "null" {
		rs.ConsentPolicy = framework.NonEmpty(s.ConsentPolicy)
	}
	if len(s.SubjectTypeAuth) == 1 {
		a := s.SubjectTypeAuth[0]
		rs.SubjectTypeAuthorization = &mgmt.SubjectTypeAuth{}
		if len(a.User) == 1 {
			rs.SubjectTypeAuthorization.User = &a.User[0]
		}
		if len(a.Client) == 1 {
			rs.SubjectTypeAuthorization.Client = &a.Client[0]
		}
	}
	var details []mgmt.AuthorizationDetail
	for _, d := range s.AuthorizationDetails {
		if !d.Disable && d.Type != "" {
			details = append(details, mgmt.AuthorizationDetail{Type: d.Type})
		}
	}
	if len(details) > 0 {
		rs.AuthorizationDetails = &details
	}
	if len(s.ProofOfPossession) == 1 && !s.ProofOfPossession[0].Disable {
		rs.ProofOfPossession = &s.ProofOfPossession[0].ProofOfPossession
	}
	if len(s.TokenEncryption) == 1 && !s.TokenEncryption[0].Disable && len(s.TokenEncryption[0].EncryptionKey) == 1 {
		e, k := s.TokenEncryption[0], s.TokenEncryption[0].EncryptionKey[0]
		rs.TokenEncryption = &mgmt.TokenEncryption{Format: e.Format, EncryptionKey: mgmt.EncryptionKey{Name: k.Name, Alg: k.Algorithm, Kid: k.Kid, PEM: k.PEM}}
	}
	if len(s.AuthorizationPolicy) == 1 && s.AuthorizationPolicy[0].PolicyID != "" {
		rs.AuthorizationPolicy = &s.AuthorizationPolicy[0]
	}
	return rs
}

// MoveState takes over an auth0_resource_server (a moved block). Its
// blocks become objects, and the key's PEM, which the tenant never
// returns, comes from the incumbent's state. The incumbent keeps scopes in
// other resources (auth0_resource_server_scopes, auth0_resource_server_scope):
// the refresh that follows the move reads them from the tenant.
func (r *serverResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{framework.FromIncumbent("auth0_resource_server",
		func(ctx context.Context, src incumbentServer, resp *resource.MoveStateResponse) {
			rs := src.toAPI()
			// The incumbent's state holds the secret (set or generated): it is
			// kept, as the configuration it moves from may set it.
			m := resourceModel{serverModel: serverModel{SigningSecret: types.StringPointerValue(rs.SigningSecret)}}
			resp.Diagnostics.Append(m.fromAPI(ctx, rs)...)
			if rs.TokenEncryption != nil {
				resp.Diagnostics.Append(m.keepPEM(ctx, rs.TokenEncryption.EncryptionKey.PEM)...)
			}
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			framework.SetIdentity(ctx, resp.TargetIdentity, framework.IDIdentity{ID: types.StringValue(src.ID)}, &resp.Diagnostics)
		})}
}

// keepPEM puts pem into the model's encryption key, as a refresh keeps it
// from the state.
func (m *serverModel) keepPEM(ctx context.Context, pem string) diag.Diagnostics {
	var e encryptionModel
	diags := m.TokenEncryption.As(ctx, &e, basetypes.ObjectAsOptions{})
	e.EncryptionKey.PEM = types.StringValue(pem)
	obj, d := types.ObjectValueFrom(ctx, encryptionType.AttrTypes, e)
	m.TokenEncryption = obj
	return append(diags, d...)
}
