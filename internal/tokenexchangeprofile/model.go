package tokenexchangeprofile

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

type profileModel struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	SubjectTokenType types.String `tfsdk:"subject_token_type"`
	ActionID         types.String `tfsdk:"action_id"`
	Type             types.String `tfsdk:"type"`
	CreatedAt        types.String `tfsdk:"created_at"`
	UpdatedAt        types.String `tfsdk:"updated_at"`
}

func (m profileModel) toAPI() mgmt.TokenExchangeProfileCreate {
	return mgmt.TokenExchangeProfileCreate{
		Name: m.Name.ValueString(), SubjectTokenType: m.SubjectTokenType.ValueString(),
		ActionID: m.ActionID.ValueString(), Type: m.Type.ValueString(),
	}
}

// toUpdate holds only the fields that differ from the state.
func (m profileModel) toUpdate(state profileModel) mgmt.TokenExchangeProfileUpdate {
	var u mgmt.TokenExchangeProfileUpdate
	if !m.Name.Equal(state.Name) {
		u.Name = m.Name.ValueStringPointer()
	}
	if !m.SubjectTokenType.Equal(state.SubjectTokenType) {
		u.SubjectTokenType = m.SubjectTokenType.ValueStringPointer()
	}
	return u
}

func (m *profileModel) fromAPI(p *mgmt.TokenExchangeProfile) {
	m.ID = types.StringValue(p.ID)
	m.Name = types.StringValue(p.Name)
	m.SubjectTokenType = types.StringValue(p.SubjectTokenType)
	m.ActionID = types.StringValue(p.ActionID)
	m.Type = types.StringValue(p.Type)
	m.CreatedAt = types.StringValue(p.CreatedAt)
	m.UpdatedAt = types.StringValue(p.UpdatedAt)
}

// sameProfile reports whether found is what sent asked for, so that
// adopting it after a lost answer changes nothing the configuration asked
// for.
func sameProfile(sent mgmt.TokenExchangeProfileCreate, found *mgmt.TokenExchangeProfile) bool {
	return found.Name == sent.Name && found.SubjectTokenType == sent.SubjectTokenType && found.ActionID == sent.ActionID && found.Type == sent.Type
}
