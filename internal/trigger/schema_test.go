package trigger_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/trigger"
)

func TestSchema_validateImplementation(t *testing.T) {
	ctx := context.Background()
	var rs resource.SchemaResponse
	trigger.NewResource().Schema(ctx, resource.SchemaRequest{}, &rs)
	if d := rs.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	var ds datasource.SchemaResponse
	trigger.NewDataSource().Schema(ctx, datasource.SchemaRequest{}, &ds)
	if d := ds.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	for name, a := range rs.Schema.Attributes {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("%s has no description", name)
		}
	}
	// The data source is the resource's schema: the trigger to read, the
	// rest computed.
	if !ds.Schema.Attributes["trigger"].IsRequired() || !ds.Schema.Attributes["actions"].IsComputed() || len(ds.Schema.Attributes) != len(rs.Schema.Attributes) {
		t.Fatalf("data source schema %v", ds.Schema.Attributes)
	}
}

func TestMoveState_fromIncumbent(t *testing.T) {
	state, identity, moved, diags := acctest.MoveState(t, trigger.NewResource(), "registry.terraform.io/auth0/auth0", "auth0_trigger_actions",
		`{"id": "post-login", "trigger": "post-login", "actions": [
		   {"id": "5d110643-a54e-432b-a0b7-e58bbf1fae77", "display_name": "First"},
		   {"id": "0b7cdb63-7b1f-4f38-a0c4-5d2d4e5b1b10", "display_name": "Second"}]}`)
	if diags.HasError() || !moved {
		t.Fatalf("moved %v: %v", moved, diags)
	}
	var m struct {
		ID      string `tfsdk:"id"`
		Trigger string `tfsdk:"trigger"`
		Actions []struct {
			ID          string `tfsdk:"id"`
			DisplayName string `tfsdk:"display_name"`
		} `tfsdk:"actions"`
	}
	if d := state.Get(context.Background(), &m); d.HasError() {
		t.Fatal(d)
	}
	if m.ID != "post-login" || m.Trigger != "post-login" || len(m.Actions) != 2 ||
		m.Actions[0].ID != "5d110643-a54e-432b-a0b7-e58bbf1fae77" || m.Actions[1].DisplayName != "Second" {
		t.Errorf("%+v", m)
	}
	var id string
	identity.GetAttribute(context.Background(), path.Root("id"), &id)
	if id != "post-login" {
		t.Errorf("identity %q", id)
	}
	// Another incumbent type is not taken.
	if _, _, moved, _ := acctest.MoveState(t, trigger.NewResource(), "registry.terraform.io/auth0/auth0", "auth0_trigger_action", `{"id": "x"}`); moved {
		t.Error("moved an auth0_trigger_action")
	}
}
