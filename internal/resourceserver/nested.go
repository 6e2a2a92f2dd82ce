package resourceserver

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// The nested objects of an API, as the schema types them and as Go structs
// for conversions (reference §4 gives their shapes).

var (
	policyType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"policy": types.StringType,
	}}
	subjectTypeAuthType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"user":   policyType,
		"client": policyType,
	}}
	detailType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"type": types.StringType,
	}}
	popType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"mechanism":    types.StringType,
		"required":     types.BoolType,
		"required_for": types.StringType,
	}}
	keyType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"name":              types.StringType,
		"alg":               types.StringType,
		"kid":               types.StringType,
		"pem":               types.StringType,
		"thumbprint_sha256": types.StringType,
	}}
	encryptionType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"format":         types.StringType,
		"encryption_key": keyType,
	}}
	authzPolicyType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"policy_id": types.StringType,
	}}
)

// The tenant's subject_type_authorization when none is set (reference §4).
const (
	defaultUserPolicy   = "allow_all"
	defaultClientPolicy = "require_client_grant"
)

type policyModel struct {
	Policy types.String `tfsdk:"policy"`
}

type subjectTypeAuthModel struct {
	User   policyModel `tfsdk:"user"`
	Client policyModel `tfsdk:"client"`
}

type detailModel struct {
	Type types.String `tfsdk:"type"`
}

type popModel struct {
	Mechanism   types.String `tfsdk:"mechanism"`
	Required    types.Bool   `tfsdk:"required"`
	RequiredFor types.String `tfsdk:"required_for"`
}

type keyModel struct {
	Name             types.String `tfsdk:"name"`
	Alg              types.String `tfsdk:"alg"`
	Kid              types.String `tfsdk:"kid"`
	PEM              types.String `tfsdk:"pem"`
	ThumbprintSHA256 types.String `tfsdk:"thumbprint_sha256"`
}

type encryptionModel struct {
	Format        types.String `tfsdk:"format"`
	EncryptionKey keyModel     `tfsdk:"encryption_key"`
}

type authzPolicyModel struct {
	PolicyID types.String `tfsdk:"policy_id"`
}

func subjectTypeAuthToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.SubjectTypeAuth {
	m, ok := flex.ObjectAs[subjectTypeAuthModel](ctx, o, diags)
	if !ok {
		return nil
	}
	return &mgmt.SubjectTypeAuth{
		User:   &mgmt.SubjectTypePolicy{Policy: m.User.Policy.ValueString()},
		Client: &mgmt.SubjectTypePolicy{Policy: m.Client.Policy.ValueString()},
	}
}

// subjectTypeAuthFromAPI reads the API's object; a side it leaves out (or an
// API without the object, on tenants that predate it) is the default.
func subjectTypeAuthFromAPI(a *mgmt.SubjectTypeAuth) types.Object {
	user, client := defaultUserPolicy, defaultClientPolicy
	if a != nil && a.User != nil {
		user = a.User.Policy
	}
	if a != nil && a.Client != nil {
		client = a.Client.Policy
	}
	return subjectTypeAuthValue(user, client)
}

func subjectTypeAuthValue(user, client string) types.Object {
	return types.ObjectValueMust(subjectTypeAuthType.AttrTypes, map[string]attr.Value{
		"user":   policyValue(user),
		"client": policyValue(client),
	})
}

func policyValue(p string) types.Object {
	return types.ObjectValueMust(policyType.AttrTypes, map[string]attr.Value{"policy": types.StringValue(p)})
}

func detailsToAPI(ctx context.Context, l types.List, diags *diag.Diagnostics) []mgmt.AuthorizationDetail {
	if !flex.IsSet(l) {
		return nil
	}
	var items []detailModel
	diags.Append(l.ElementsAs(ctx, &items, false)...)
	out := make([]mgmt.AuthorizationDetail, 0, len(items))
	for _, d := range items {
		out = append(out, mgmt.AuthorizationDetail{Type: d.Type.ValueString()})
	}
	return out
}

// detailsFromAPI reads authorization_details; none and an empty list are
// both null (the schema refuses an empty list).
func detailsFromAPI(d *[]mgmt.AuthorizationDetail) types.List {
	if d == nil || len(*d) == 0 {
		return types.ListNull(detailType)
	}
	elems := make([]attr.Value, 0, len(*d))
	for _, x := range *d {
		elems = append(elems, types.ObjectValueMust(detailType.AttrTypes, map[string]attr.Value{"type": types.StringValue(x.Type)}))
	}
	return types.ListValueMust(detailType, elems)
}

func popToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.ProofOfPossession {
	m, ok := flex.ObjectAs[popModel](ctx, o, diags)
	if !ok {
		return nil
	}
	return &mgmt.ProofOfPossession{
		Mechanism:   m.Mechanism.ValueString(),
		Required:    m.Required.ValueBool(),
		RequiredFor: m.RequiredFor.ValueString(),
	}
}

func popFromAPI(p *mgmt.ProofOfPossession) types.Object {
	if p == nil {
		return types.ObjectNull(popType.AttrTypes)
	}
	return types.ObjectValueMust(popType.AttrTypes, map[string]attr.Value{
		"mechanism":    types.StringValue(p.Mechanism),
		"required":     types.BoolValue(p.Required),
		"required_for": flex.NullIfEmpty(p.RequiredFor),
	})
}

// encryptionToAPI builds token_encryption to send: the key's PEM goes, its
// thumbprint (read-only) never does.
func encryptionToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.TokenEncryption {
	m, ok := flex.ObjectAs[encryptionModel](ctx, o, diags)
	if !ok {
		return nil
	}
	return &mgmt.TokenEncryption{
		Format: m.Format.ValueString(),
		EncryptionKey: mgmt.EncryptionKey{
			Name: m.EncryptionKey.Name.ValueString(),
			Alg:  m.EncryptionKey.Alg.ValueString(),
			Kid:  m.EncryptionKey.Kid.ValueString(),
			PEM:  m.EncryptionKey.PEM.ValueString(),
		},
	}
}

// encryptionFromAPI reads token_encryption. The API never returns the PEM
// (reference §4), so prior's PEM (the plan's after a write, the state's on a
// refresh) is kept unless prior recorded another thumbprint than the API
// now shows: the key was then changed outside Terraform, and the PEM
// becomes null so that the plan puts the configured key back.
func encryptionFromAPI(ctx context.Context, e *mgmt.TokenEncryption, prior types.Object) (types.Object, diag.Diagnostics) {
	if e == nil {
		return types.ObjectNull(encryptionType.AttrTypes), nil
	}
	var diags diag.Diagnostics
	pem := types.StringNull()
	if p, ok := flex.ObjectAs[encryptionModel](ctx, prior, &diags); ok {
		thumb := p.EncryptionKey.ThumbprintSHA256
		if thumb.IsUnknown() || thumb.IsNull() || thumb.ValueString() == e.EncryptionKey.ThumbprintSHA256 {
			pem = p.EncryptionKey.PEM
		}
	}
	key := types.ObjectValueMust(keyType.AttrTypes, map[string]attr.Value{
		"name":              flex.NullIfEmpty(e.EncryptionKey.Name),
		"alg":               types.StringValue(e.EncryptionKey.Alg),
		"kid":               flex.NullIfEmpty(e.EncryptionKey.Kid),
		"pem":               pem,
		"thumbprint_sha256": flex.NullIfEmpty(e.EncryptionKey.ThumbprintSHA256),
	})
	return types.ObjectValueMust(encryptionType.AttrTypes, map[string]attr.Value{
		"format":         types.StringValue(e.Format),
		"encryption_key": key,
	}), diags
}

func authzPolicyToAPI(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mgmt.AuthorizationPolicy {
	m, ok := flex.ObjectAs[authzPolicyModel](ctx, o, diags)
	if !ok {
		return nil
	}
	return &mgmt.AuthorizationPolicy{PolicyID: m.PolicyID.ValueString()}
}

func authzPolicyFromAPI(p *mgmt.AuthorizationPolicy) types.Object {
	if p == nil {
		return types.ObjectNull(authzPolicyType.AttrTypes)
	}
	return types.ObjectValueMust(authzPolicyType.AttrTypes, map[string]attr.Value{"policy_id": types.StringValue(p.PolicyID)})
}
