package client

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

type grantModel struct {
	ID                        types.String `tfsdk:"id"`
	ClientID                  types.String `tfsdk:"client_id"`
	Audience                  types.String `tfsdk:"audience"`
	Scopes                    types.Set    `tfsdk:"scopes"`
	AllowAllScopes            types.Bool   `tfsdk:"allow_all_scopes"`
	SubjectType               types.String `tfsdk:"subject_type"`
	OrganizationUsage         types.String `tfsdk:"organization_usage"`
	AllowAnyOrganization      types.Bool   `tfsdk:"allow_any_organization"`
	AuthorizationDetailsTypes types.List   `tfsdk:"authorization_details_types"`
	IsSystem                  types.Bool   `tfsdk:"is_system"`
}

// scopeValues are the planned scopes, sorted; none when allow_all_scopes.
func (m grantModel) scopeValues(ctx context.Context, diags *diag.Diagnostics) []string {
	out := []string{}
	if flex.IsSet(m.Scopes) {
		diags.Append(m.Scopes.ElementsAs(ctx, &out, false)...)
	}
	slices.Sort(out)
	return out
}

func (m grantModel) allowAll() bool { return m.AllowAllScopes.ValueBool() }

// toCreate builds the POST body: the client, the API, the scopes (an empty
// list for none: the API requires the key [O]) or allow_all_scopes, and
// the other fields the configuration sets (a tenant without organizations
// never meets their fields unless they are configured).
func (m grantModel) toCreate(ctx context.Context, config grantModel) (mgmt.ClientGrant, diag.Diagnostics) {
	var diags diag.Diagnostics
	g := mgmt.ClientGrant{ClientID: m.ClientID.ValueString(), Audience: m.Audience.ValueString()}
	if m.allowAll() {
		g.AllowAllScopes = mgmt.Ptr(true)
	} else {
		scopes := m.scopeValues(ctx, &diags)
		g.Scope = &scopes
	}
	if !config.SubjectType.IsNull() {
		g.SubjectType = flex.StringPointer(m.SubjectType)
	}
	if !config.OrganizationUsage.IsNull() {
		g.OrganizationUsage = flex.StringPointer(m.OrganizationUsage)
	}
	if !config.AllowAnyOrganization.IsNull() {
		g.AllowAnyOrganization = flex.BoolPointer(m.AllowAnyOrganization)
	}
	g.AuthorizationDetailsTypes = flex.StringsPointer(ctx, m.AuthorizationDetailsTypes, &diags)
	return g, diags
}

// toUpdate builds the PATCH body: the fields whose plan differs from the
// state. Scopes go whole (the API replaces the list [O]), an empty list for
// none; so do authorization_details_types ([] clears them [O]).
func (m grantModel) toUpdate(ctx context.Context, state grantModel) (mgmt.ClientGrantUpdate, diag.Diagnostics) {
	var diags diag.Diagnostics
	var u mgmt.ClientGrantUpdate
	if flex.Changed(m.AllowAllScopes, state.AllowAllScopes) {
		u.AllowAllScopes = mgmt.Set(m.allowAll())
	}
	if !m.allowAll() && (flex.Changed(m.Scopes, state.Scopes) || flex.Changed(m.AllowAllScopes, state.AllowAllScopes)) {
		u.Scope = mgmt.Set(m.scopeValues(ctx, &diags))
	}
	if flex.Changed(m.OrganizationUsage, state.OrganizationUsage) {
		u.OrganizationUsage = mgmt.Set(m.OrganizationUsage.ValueString())
	}
	if flex.Changed(m.AllowAnyOrganization, state.AllowAnyOrganization) {
		u.AllowAnyOrganization = mgmt.Set(m.AllowAnyOrganization.ValueBool())
	}
	u.AuthorizationDetailsTypes = flex.PatchStrings(ctx, m.AuthorizationDetailsTypes, state.AuthorizationDetailsTypes, flex.Empty, &diags)
	return u, diags
}

// fromAPI sets the model from the API's grant; what the API leaves out is
// its documented default (subject_type client, organization_usage deny,
// allow_any_organization false [S]).
func (m *grantModel) fromAPI(g *mgmt.ClientGrant) {
	m.ID = types.StringValue(g.ID)
	m.ClientID = types.StringValue(g.ClientID)
	m.Audience = types.StringValue(g.Audience)
	m.AllowAllScopes = types.BoolValue(g.AllowAllScopes != nil && *g.AllowAllScopes)
	m.Scopes = types.SetNull(types.StringType)
	if !m.allowAll() {
		elems := []attr.Value{}
		if g.Scope != nil {
			for _, s := range *g.Scope {
				elems = append(elems, types.StringValue(s))
			}
		}
		m.Scopes = types.SetValueMust(types.StringType, elems)
	}
	m.SubjectType = flex.StringOr(g.SubjectType, "client")
	m.OrganizationUsage = flex.StringOr(g.OrganizationUsage, "deny")
	m.AllowAnyOrganization = flex.BoolOr(g.AllowAnyOrganization, false)
	m.AuthorizationDetailsTypes = flex.ListOf(g.AuthorizationDetailsTypes)
	m.IsSystem = types.BoolValue(g.IsSystem)
}

// sameGrant reports whether found is what sent asked for, so that adopting
// it after a lost answer changes nothing the configuration asked for.
func sameGrant(sent mgmt.ClientGrant, found *mgmt.ClientGrant) bool {
	var a, b grantModel
	a.fromAPI(&sent)
	b.fromAPI(found)
	return a.Scopes.Equal(b.Scopes) && a.AllowAllScopes.Equal(b.AllowAllScopes) && a.SubjectType.Equal(b.SubjectType) &&
		(sent.OrganizationUsage == nil || a.OrganizationUsage.Equal(b.OrganizationUsage)) &&
		(sent.AllowAnyOrganization == nil || a.AllowAnyOrganization.Equal(b.AllowAnyOrganization)) &&
		a.AuthorizationDetailsTypes.Equal(b.AuthorizationDetailsTypes)
}
