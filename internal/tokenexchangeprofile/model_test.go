package tokenexchangeprofile

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestProfileModel_roundTrip(t *testing.T) {
	in := &mgmt.TokenExchangeProfile{ID: "tep_1", Name: "n", SubjectTokenType: "urn:a:b", ActionID: "a", Type: "custom_authentication", CreatedAt: "c", UpdatedAt: "u"}
	var m profileModel
	m.fromAPI(in)
	if m.ID.ValueString() != "tep_1" || m.UpdatedAt.ValueString() != "u" || m.CreatedAt.ValueString() != "c" {
		t.Fatalf("%+v", m)
	}
	want := mgmt.TokenExchangeProfileCreate{Name: "n", SubjectTokenType: "urn:a:b", ActionID: "a", Type: "custom_authentication"}
	if got := m.toAPI(); got != want {
		t.Fatalf("toAPI %+v", got)
	}
}

func TestProfileModel_toUpdateSendsOnlyChanges(t *testing.T) {
	state := profileModel{Name: types.StringValue("a"), SubjectTokenType: types.StringValue("urn:x:1")}
	plan := state
	if u := plan.toUpdate(state); u.Name != nil || u.SubjectTokenType != nil {
		t.Fatalf("no change sent %+v", u)
	}
	plan.Name = types.StringValue("b")
	if u := plan.toUpdate(state); u.Name == nil || *u.Name != "b" || u.SubjectTokenType != nil {
		t.Fatalf("%+v", u)
	}
}

func TestSameProfile(t *testing.T) {
	sent := mgmt.TokenExchangeProfileCreate{Name: "n", SubjectTokenType: "urn:a:b", ActionID: "a", Type: "custom_authentication"}
	found := mgmt.TokenExchangeProfile{ID: "tep_1", Name: "n", SubjectTokenType: "urn:a:b", ActionID: "a", Type: "custom_authentication", CreatedAt: "c"}
	if !sameProfile(sent, &found) {
		t.Error("the profile sent is not the same as the one found with its values")
	}
	for name, change := range map[string]func(*mgmt.TokenExchangeProfile){
		"name":               func(p *mgmt.TokenExchangeProfile) { p.Name = "m" },
		"subject_token_type": func(p *mgmt.TokenExchangeProfile) { p.SubjectTokenType = "urn:a:c" },
		"action_id":          func(p *mgmt.TokenExchangeProfile) { p.ActionID = "b" },
	} {
		other := found
		change(&other)
		if sameProfile(sent, &other) {
			t.Errorf("a profile with another %s is the same", name)
		}
	}
}
