package resourceserver

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

type serverModel struct {
	ID                  types.String `tfsdk:"id"`
	Name                types.String `tfsdk:"name"`
	Identifier          types.String `tfsdk:"identifier"`
	Scopes              types.Set    `tfsdk:"scopes"`
	SigningAlg          types.String `tfsdk:"signing_alg"`
	SigningSecret       types.String `tfsdk:"signing_secret"`
	AllowOfflineAccess  types.Bool   `tfsdk:"allow_offline_access"`
	TokenLifetime       types.Int64  `tfsdk:"token_lifetime"`
	TokenLifetimeForWeb types.Int64  `tfsdk:"token_lifetime_for_web"`
	SkipConsent         types.Bool   `tfsdk:"skip_consent_for_verifiable_first_party_clients"`
	EnforcePolicies     types.Bool   `tfsdk:"enforce_policies"`
	TokenDialect        types.String `tfsdk:"token_dialect"`
	ClientID            types.String `tfsdk:"client_id"`
	IsSystem            types.Bool   `tfsdk:"is_system"`
}

type scopeModel struct {
	Value       types.String `tfsdk:"value"`
	Description types.String `tfsdk:"description"`
}

var scopeType = types.ObjectType{AttrTypes: map[string]attr.Type{"value": types.StringType, "description": types.StringType}}

// toAPI builds the write body. Unknown and null values are not sent, so the
// API keeps (or defaults) them; scopes are always sent on update, because a
// null set means "no scopes" and PATCH replaces the list whole.
func (m serverModel) toAPI(ctx context.Context, update bool) (mgmt.ResourceServer, diag.Diagnostics) {
	rs := mgmt.ResourceServer{
		Identifier:          m.Identifier.ValueString(),
		Name:                known(m.Name, m.Name.ValueStringPointer),
		SigningAlg:          known(m.SigningAlg, m.SigningAlg.ValueStringPointer),
		SigningSecret:       known(m.SigningSecret, m.SigningSecret.ValueStringPointer),
		AllowOfflineAccess:  known(m.AllowOfflineAccess, m.AllowOfflineAccess.ValueBoolPointer),
		TokenLifetime:       known(m.TokenLifetime, m.TokenLifetime.ValueInt64Pointer),
		TokenLifetimeForWeb: known(m.TokenLifetimeForWeb, m.TokenLifetimeForWeb.ValueInt64Pointer),
		SkipConsentForVerifiableFirstPartyClients: known(m.SkipConsent, m.SkipConsent.ValueBoolPointer),
		EnforcePolicies: known(m.EnforcePolicies, m.EnforcePolicies.ValueBoolPointer),
		TokenDialect:    known(m.TokenDialect, m.TokenDialect.ValueStringPointer),
	}
	var diags diag.Diagnostics
	if !m.Scopes.IsNull() && !m.Scopes.IsUnknown() {
		var scopes []scopeModel
		diags = m.Scopes.ElementsAs(ctx, &scopes, false)
		list := make([]mgmt.ResourceServerScope, 0, len(scopes))
		for _, s := range scopes {
			list = append(list, mgmt.ResourceServerScope{Value: s.Value.ValueString(), Description: s.Description.ValueString()})
		}
		rs.Scopes = &list
	} else if update && m.Scopes.IsNull() {
		rs.Scopes = &[]mgmt.ResourceServerScope{}
	}
	return rs, diags
}

// fromAPI sets the model from the API's object; absent optional fields
// become null and an empty scope list is the same as none.
func (m *serverModel) fromAPI(s *mgmt.ResourceServer) diag.Diagnostics {
	m.ID = types.StringValue(s.ID)
	m.Identifier = types.StringValue(s.Identifier)
	m.Name = types.StringPointerValue(s.Name)
	m.SigningAlg = types.StringPointerValue(s.SigningAlg)
	m.SigningSecret = types.StringPointerValue(s.SigningSecret)
	m.AllowOfflineAccess = types.BoolPointerValue(s.AllowOfflineAccess)
	m.TokenLifetime = types.Int64PointerValue(s.TokenLifetime)
	m.TokenLifetimeForWeb = types.Int64PointerValue(s.TokenLifetimeForWeb)
	m.SkipConsent = types.BoolPointerValue(s.SkipConsentForVerifiableFirstPartyClients)
	m.EnforcePolicies = types.BoolPointerValue(s.EnforcePolicies)
	m.TokenDialect = types.StringPointerValue(s.TokenDialect)
	m.ClientID = types.StringNull()
	if s.ClientID != "" {
		m.ClientID = types.StringValue(s.ClientID)
	}
	m.IsSystem = types.BoolValue(s.IsSystem)
	if s.Scopes == nil || len(*s.Scopes) == 0 {
		m.Scopes = types.SetNull(scopeType)
		return nil
	}
	elems := make([]attr.Value, 0, len(*s.Scopes))
	for _, sc := range *s.Scopes {
		elems = append(elems, types.ObjectValueMust(scopeType.AttrTypes, map[string]attr.Value{
			"value": types.StringValue(sc.Value), "description": types.StringValue(sc.Description),
		}))
	}
	set, diags := types.SetValue(scopeType, elems)
	m.Scopes = set
	return diags
}

// known returns v's value as a pointer, or nil when v is null or unknown
// (the framework's pointer getters turn unknown into a zero value).
func known[T any](v attr.Value, ptr func() *T) *T {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	return ptr()
}

// sameServer reports whether found has every value sent set the same way, so
// that adopting it cannot change what the configuration asked for.
func sameServer(sent mgmt.ResourceServer, found *mgmt.ResourceServer) bool {
	if found.Identifier != sent.Identifier || found.IsSystem {
		return false
	}
	if !samePtr(sent.Name, found.Name) || !samePtr(sent.SigningAlg, found.SigningAlg) || !samePtr(sent.SigningSecret, found.SigningSecret) ||
		!samePtr(sent.AllowOfflineAccess, found.AllowOfflineAccess) || !samePtr(sent.TokenLifetime, found.TokenLifetime) ||
		!samePtr(sent.TokenLifetimeForWeb, found.TokenLifetimeForWeb) || !samePtr(sent.EnforcePolicies, found.EnforcePolicies) ||
		!samePtr(sent.SkipConsentForVerifiableFirstPartyClients, found.SkipConsentForVerifiableFirstPartyClients) || !samePtr(sent.TokenDialect, found.TokenDialect) {
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
