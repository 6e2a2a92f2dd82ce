package resourceserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

type serverModel struct {
	ID                  types.String `tfsdk:"id"`
	Name                types.String `tfsdk:"name"`
	Identifier          types.String `tfsdk:"identifier"`
	Scopes              types.Map    `tfsdk:"scopes"`
	SigningAlg          types.String `tfsdk:"signing_alg"`
	SigningSecret       types.String `tfsdk:"signing_secret"`
	AllowOfflineAccess  types.Bool   `tfsdk:"allow_offline_access"`
	TokenLifetime       types.Int64  `tfsdk:"token_lifetime"`
	TokenLifetimeForWeb types.Int64  `tfsdk:"token_lifetime_for_web"`
	SkipConsent         types.Bool   `tfsdk:"skip_consent_for_verifiable_first_party_clients"`
	EnforcePolicies     types.Bool   `tfsdk:"enforce_policies"`
	TokenDialect        types.String `tfsdk:"token_dialect"`
	AllowOnlineAccess   types.Bool   `tfsdk:"allow_online_access"`
	EphemeralSessions   types.Bool   `tfsdk:"allow_online_access_with_ephemeral_sessions"`
	SubjectTypeAuth     types.Object `tfsdk:"subject_type_authorization"`
	ConsentPolicy       types.String `tfsdk:"consent_policy"`
	AuthzDetails        types.List   `tfsdk:"authorization_details"`
	ProofOfPossession   types.Object `tfsdk:"proof_of_possession"`
	TokenEncryption     types.Object `tfsdk:"token_encryption"`
	AuthzPolicy         types.Object `tfsdk:"authorization_policy"`
	ClientID            types.String `tfsdk:"client_id"`
	IsSystem            types.Bool   `tfsdk:"is_system"`

	// readSecret says that the tenant's secret is read into
	// signing_secret: the state holds a secret only when asked for.
	readSecret bool
}

// resourceModel is the resource's model: the API's attributes, which the
// data source shares, and the write-only secret.
type resourceModel struct {
	serverModel
	SigningSecretWO    types.String `tfsdk:"signing_secret_wo"`
	SigningSecretWOVer types.Int64  `tfsdk:"signing_secret_wo_version"`
}

// fromAPI is serverModel.fromAPI for the resource: the secret is read
// only while the model holds one (the configuration's, in a plan, or the
// state's, which holds one only while the configuration sets it), so a
// secret the tenant generated, or one written write-only and then removed
// from the configuration, never comes into the state; the write-only value
// is never stored.
func (m *resourceModel) fromAPI(ctx context.Context, s *mgmt.ResourceServer) diag.Diagnostics {
	m.readSecret = !m.SigningSecret.IsNull()
	m.SigningSecretWO = types.StringNull()
	return m.serverModel.fromAPI(ctx, s)
}

// toCreate builds the POST body from the plan: every known value is sent, the
// defaults the plan shows included, so the tenant holds exactly the plan.
//
// The fields of features a tenant may lack (online access,
// subject_type_authorization) are sent only when the configuration sets
// them: their values when unset are what the API shows when it omits them,
// and a tenant without the feature would refuse the field (reference §4:
// omitted until set; the API answers 400 to fields it does not know, §0.3).
func (m serverModel) toCreate(ctx context.Context, config resourceModel) (mgmt.ResourceServer, diag.Diagnostics) {
	var diags diag.Diagnostics
	rs := mgmt.ResourceServer{
		Identifier:          m.Identifier.ValueString(),
		Name:                flex.StringPointer(m.Name),
		SigningAlg:          flex.StringPointer(m.SigningAlg),
		SigningSecret:       flex.StringPointer(m.SigningSecret),
		AllowOfflineAccess:  flex.BoolPointer(m.AllowOfflineAccess),
		TokenLifetime:       flex.Int64Pointer(m.TokenLifetime),
		TokenLifetimeForWeb: flex.Int64Pointer(m.TokenLifetimeForWeb),
		SkipConsentForVerifiableFirstPartyClients: flex.BoolPointer(m.SkipConsent),
		EnforcePolicies: flex.BoolPointer(m.EnforcePolicies),
		TokenDialect:    flex.StringPointer(m.TokenDialect),
		ConsentPolicy:   flex.StringPointer(m.ConsentPolicy),
	}
	if flex.IsSet(config.AllowOnlineAccess) {
		rs.AllowOnlineAccess = flex.BoolPointer(m.AllowOnlineAccess)
	}
	if flex.IsSet(config.EphemeralSessions) {
		rs.AllowOnlineAccessWithEphemeralSessions = flex.BoolPointer(m.EphemeralSessions)
	}
	if scopes := m.scopes(); len(scopes) > 0 {
		rs.Scopes = &scopes
	}
	// A write-only secret is only in the configuration.
	if !config.SigningSecretWO.IsNull() {
		rs.SigningSecret = config.SigningSecretWO.ValueStringPointer()
	}
	if flex.IsSet(config.SubjectTypeAuth) {
		rs.SubjectTypeAuthorization = subjectTypeAuthToAPI(ctx, m.SubjectTypeAuth, &diags)
	}
	if details := detailsToAPI(ctx, m.AuthzDetails, &diags); details != nil {
		rs.AuthorizationDetails = &details
	}
	rs.ProofOfPossession = popToAPI(ctx, m.ProofOfPossession, &diags)
	rs.TokenEncryption = encryptionToAPI(ctx, m.TokenEncryption, &diags)
	rs.AuthorizationPolicy = authzPolicyToAPI(ctx, m.AuthzPolicy, &diags)
	return rs, diags
}

// toUpdate builds the PATCH body: exactly the attributes whose planned value
// differs from the state, so the request holds what the plan shows and never
// a stale value the user did not write. An attribute planned as null was
// removed from the configuration and is cleared (scopes become an empty
// list, reference §4). A value still unknown is left to the tenant. The
// write-only secret (secretWO, from the configuration) is sent when
// sendWO says its version changed.
func (m serverModel) toUpdate(ctx context.Context, state serverModel, secretWO types.String, sendWO bool) (mgmt.ResourceServerUpdate, diag.Diagnostics) {
	var u mgmt.ResourceServerUpdate
	// name, enforce_policies and token_dialect are never sent as null. The
	// tenant may fill them in (they are Optional + Computed), and the
	// reference observes a null for them accepted with the key left absent
	// but only specifies, not observes, that null clears a set value (§0.2);
	// a value removed from the configuration is left as it is.
	u.Name = flex.PatchString(m.Name, state.Name, flex.Keep)
	u.SigningAlg = flex.PatchString(m.SigningAlg, state.SigningAlg, flex.Clear)
	u.AllowOfflineAccess = flex.PatchBool(m.AllowOfflineAccess, state.AllowOfflineAccess, flex.Clear)
	u.TokenLifetime = flex.PatchInt64(m.TokenLifetime, state.TokenLifetime, flex.Clear)
	u.TokenLifetimeForWeb = flex.PatchInt64(m.TokenLifetimeForWeb, state.TokenLifetimeForWeb, flex.Clear)
	u.SkipConsentForVerifiableFirstPartyClients = flex.PatchBool(m.SkipConsent, state.SkipConsent, flex.Clear)
	u.EnforcePolicies = flex.PatchBool(m.EnforcePolicies, state.EnforcePolicies, flex.Keep)
	u.TokenDialect = flex.PatchString(m.TokenDialect, state.TokenDialect, flex.Keep)
	u.AllowOnlineAccess = flex.PatchBool(m.AllowOnlineAccess, state.AllowOnlineAccess, flex.Clear)
	u.AllowOnlineAccessWithEphemeralSessions = flex.PatchBool(m.EphemeralSessions, state.EphemeralSessions, flex.Clear)
	u.ConsentPolicy = flex.PatchString(m.ConsentPolicy, state.ConsentPolicy, flex.Clear)
	// The secret is never cleared by itself: it goes away with HS256.
	u.SigningSecret = flex.PatchString(m.SigningSecret, state.SigningSecret, flex.Keep)
	if sendWO && !secretWO.IsNull() {
		u.SigningSecret = mgmt.Set(secretWO.ValueString())
	}
	var diags diag.Diagnostics
	u.SubjectTypeAuthorization = flex.PatchObject(m.SubjectTypeAuth, state.SubjectTypeAuth, flex.Clear, func() *mgmt.SubjectTypeAuth {
		return subjectTypeAuthToAPI(ctx, m.SubjectTypeAuth, &diags)
	})
	u.ProofOfPossession = flex.PatchObject(m.ProofOfPossession, state.ProofOfPossession, flex.Clear, func() *mgmt.ProofOfPossession {
		return popToAPI(ctx, m.ProofOfPossession, &diags)
	})
	u.TokenEncryption = flex.PatchObject(m.TokenEncryption, state.TokenEncryption, flex.Clear, func() *mgmt.TokenEncryption {
		return encryptionToAPI(ctx, m.TokenEncryption, &diags)
	})
	u.AuthorizationPolicy = flex.PatchObject(m.AuthzPolicy, state.AuthzPolicy, flex.Clear, func() *mgmt.AuthorizationPolicy {
		return authzPolicyToAPI(ctx, m.AuthzPolicy, &diags)
	})
	u.AuthorizationDetails = flex.PatchObject(m.AuthzDetails, state.AuthzDetails, flex.Clear, func() *[]mgmt.AuthorizationDetail {
		details := detailsToAPI(ctx, m.AuthzDetails, &diags)
		return &details
	})
	if flex.Changed(m.Scopes, state.Scopes) {
		scopes := m.scopes()
		if scopes == nil {
			scopes = []mgmt.ResourceServerScope{}
		}
		u.Scopes = mgmt.Set(scopes)
	}
	return u, diags
}

// scopes is the configured scopes as the API takes them, in the order of
// their values (a map has none).
func (m serverModel) scopes() []mgmt.ResourceServerScope {
	if !flex.IsSet(m.Scopes) {
		return nil
	}
	elems := m.Scopes.Elements()
	out := make([]mgmt.ResourceServerScope, 0, len(elems))
	for value, v := range elems {
		desc, _ := v.(types.String)
		out = append(out, mgmt.ResourceServerScope{Value: value, Description: desc.ValueString()})
	}
	slices.SortFunc(out, func(a, b mgmt.ResourceServerScope) int { return strings.Compare(a.Value, b.Value) })
	return out
}

// scopesFromAPI is the scopes attribute for the API's scopes: null when it
// defines none (an absent list and an empty one alike).
func scopesFromAPI(scopes *[]mgmt.ResourceServerScope) types.Map {
	if scopes == nil || len(*scopes) == 0 {
		return types.MapNull(types.StringType)
	}
	elems := make(map[string]attr.Value, len(*scopes))
	for _, sc := range *scopes {
		elems[sc.Value] = types.StringValue(sc.Description)
	}
	return types.MapValueMust(types.StringType, elems)
}

// fromAPI sets the model from the API's object; absent optional fields
// become null and an empty scope list is the same as none. The model holds
// the prior values (the plan after a write, the state on a refresh), which
// only the key PEM, never returned by the API, is taken from.
func (m *serverModel) fromAPI(ctx context.Context, s *mgmt.ResourceServer) diag.Diagnostics {
	enc, diags := encryptionFromAPI(ctx, s.TokenEncryption, m.TokenEncryption)
	m.TokenEncryption = enc
	m.ID = types.StringValue(s.ID)
	m.Identifier = types.StringValue(s.Identifier)
	m.Name = types.StringPointerValue(s.Name)
	m.SigningAlg = types.StringPointerValue(s.SigningAlg)
	// The secret belongs to HS256: whether the API still shows it after a
	// switch to another algorithm is not in the reference, so it is not read
	// then (the schema plans it null).
	// Only a secret asked for (readSecret) is read into the state.
	m.SigningSecret = types.StringNull()
	if s.SigningAlg != nil && *s.SigningAlg == "HS256" && m.readSecret {
		m.SigningSecret = types.StringPointerValue(s.SigningSecret)
	}
	m.AllowOfflineAccess = types.BoolPointerValue(s.AllowOfflineAccess)
	m.TokenLifetime = types.Int64PointerValue(s.TokenLifetime)
	m.TokenLifetimeForWeb = types.Int64PointerValue(s.TokenLifetimeForWeb)
	m.SkipConsent = types.BoolPointerValue(s.SkipConsentForVerifiableFirstPartyClients)
	m.EnforcePolicies = types.BoolPointerValue(s.EnforcePolicies)
	m.TokenDialect = types.StringPointerValue(s.TokenDialect)
	// Omitted until set, and false when never set (reference §4).
	m.AllowOnlineAccess = types.BoolValue(s.AllowOnlineAccess != nil && *s.AllowOnlineAccess)
	m.EphemeralSessions = types.BoolValue(s.AllowOnlineAccessWithEphemeralSessions != nil && *s.AllowOnlineAccessWithEphemeralSessions)
	m.SubjectTypeAuth = subjectTypeAuthFromAPI(s.SubjectTypeAuthorization)
	m.ConsentPolicy = types.StringPointerValue(s.ConsentPolicy)
	m.AuthzDetails = detailsFromAPI(s.AuthorizationDetails)
	m.ProofOfPossession = popFromAPI(s.ProofOfPossession)
	m.AuthzPolicy = authzPolicyFromAPI(s.AuthorizationPolicy)
	m.ClientID = flex.NullIfEmpty(s.ClientID)
	m.IsSystem = types.BoolValue(s.IsSystem)
	m.Scopes = scopesFromAPI(s.Scopes)
	return diags
}

// sameServer reports whether found has every value sent set the same way, so
// that adopting it cannot change what the configuration asked for.
func sameServer(sent mgmt.ResourceServer, found *mgmt.ResourceServer) bool {
	if found.Identifier != sent.Identifier || found.IsSystem {
		return false
	}
	if !samePtr(sent.Name, found.Name) ||
		!samePtr(sent.SigningAlg, found.SigningAlg) ||
		!samePtr(sent.SigningSecret, found.SigningSecret) ||
		!samePtr(sent.AllowOfflineAccess, found.AllowOfflineAccess) ||
		!samePtr(sent.TokenLifetime, found.TokenLifetime) ||
		!samePtr(sent.TokenLifetimeForWeb, found.TokenLifetimeForWeb) ||
		!samePtr(sent.EnforcePolicies, found.EnforcePolicies) ||
		!samePtr(sent.SkipConsentForVerifiableFirstPartyClients, found.SkipConsentForVerifiableFirstPartyClients) ||
		!samePtr(sent.TokenDialect, found.TokenDialect) ||
		!samePtr(sent.AllowOnlineAccess, found.AllowOnlineAccess) ||
		!samePtr(sent.AllowOnlineAccessWithEphemeralSessions, found.AllowOnlineAccessWithEphemeralSessions) ||
		!samePtr(sent.ConsentPolicy, found.ConsentPolicy) ||
		!sameJSON(sent.SubjectTypeAuthorization, found.SubjectTypeAuthorization) ||
		!sameJSON(sent.AuthorizationDetails, found.AuthorizationDetails) ||
		!sameJSON(sent.ProofOfPossession, found.ProofOfPossession) ||
		!sameJSON(sent.AuthorizationPolicy, found.AuthorizationPolicy) ||
		!sameEncryption(sent.TokenEncryption, found.TokenEncryption) {
		return false
	}
	want := map[mgmt.ResourceServerScope]bool{}
	if sent.Scopes != nil {
		for _, s := range *sent.Scopes {
			want[s] = true
		}
	}
	var got []mgmt.ResourceServerScope
	if found.Scopes != nil {
		got = *found.Scopes
	}
	if len(got) != len(want) {
		return false
	}
	for _, s := range got {
		if !want[s] {
			return false
		}
	}
	return true
}

// samePtr is true when nothing was sent, or the same value was found.
func samePtr[T comparable](sent, found *T) bool {
	return sent == nil || found != nil && *sent == *found
}

// sameJSON is samePtr for objects: nothing was sent, or an equal object was found.
func sameJSON[T any](sent, found *T) bool {
	if sent == nil {
		return true
	}
	if found == nil {
		return false
	}
	a, errA := json.Marshal(sent)
	b, errB := json.Marshal(found)
	return errA == nil && errB == nil && string(a) == string(b)
}

// sameEncryption compares token encryption without the key's PEM, which
// the API never returns; the thumbprint stands for it only in the API's
// own terms, so an adopted key is one with the same name, alg and kid.
func sameEncryption(sent, found *mgmt.TokenEncryption) bool {
	if sent == nil {
		return true
	}
	if found == nil {
		return false
	}
	s, f := *sent, *found
	s.EncryptionKey.PEM, f.EncryptionKey.PEM, s.EncryptionKey.ThumbprintSHA256, f.EncryptionKey.ThumbprintSHA256 = "", "", "", ""
	return s == f
}
