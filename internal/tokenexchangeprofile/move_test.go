package tokenexchangeprofile_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/tokenexchangeprofile"
)

func TestMoveState_fromIncumbent(t *testing.T) {
	state, identity, moved, diags := acctest.MoveState(t, tokenexchangeprofile.NewResource(), "registry.terraform.io/auth0/auth0", "auth0_token_exchange_profile",
		`{"action_id": "34305a21-453d-4fea-88ec-61c367edefb9", "created_at": "2026-11-24 03:21:05.569 +0000 UTC", "id": "tep_KUNMLDZqfQn9Mz3N",
		  "name": "cis", "subject_token_type": "https://acme.com/cis-token", "type": "custom_authentication", "updated_at": "2026-11-24 03:21:05.569 +0000 UTC"}`)
	if diags.HasError() || !moved {
		t.Fatalf("moved %v: %v", moved, diags)
	}
	var m struct {
		ID               string  `tfsdk:"id"`
		Name             string  `tfsdk:"name"`
		SubjectTokenType string  `tfsdk:"subject_token_type"`
		ActionID         string  `tfsdk:"action_id"`
		Type             string  `tfsdk:"type"`
		CreatedAt        *string `tfsdk:"created_at"`
		UpdatedAt        *string `tfsdk:"updated_at"`
	}
	if d := state.Get(context.Background(), &m); d.HasError() {
		t.Fatal(d)
	}
	if m.ID != "tep_KUNMLDZqfQn9Mz3N" || m.Name != "cis" || m.SubjectTokenType != "https://acme.com/cis-token" || m.ActionID == "" || m.Type != "custom_authentication" {
		t.Errorf("%+v", m)
	}
	// The incumbent's timestamps are in another format: the refresh reads them.
	if m.CreatedAt != nil || m.UpdatedAt != nil {
		t.Errorf("timestamps %v %v, want them left to the refresh", m.CreatedAt, m.UpdatedAt)
	}
	var id string
	identity.GetAttribute(context.Background(), path.Root("id"), &id)
	if id != "tep_KUNMLDZqfQn9Mz3N" {
		t.Errorf("identity %q", id)
	}
}
