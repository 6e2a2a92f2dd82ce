package trigger

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestModel_roundTrip(t *testing.T) {
	ctx := context.Background()
	var m bindingsModel
	in := []mgmt.TriggerBinding{
		{DisplayName: "Second", Action: mgmt.Action{ID: "b"}},
		{DisplayName: "First", Action: mgmt.Action{ID: "a"}},
	}
	if d := m.fromAPI(ctx, "post-login", in); d.HasError() {
		t.Fatal(d)
	}
	body, d := m.toAPI(ctx)
	b, _ := json.Marshal(body)
	if d.HasError() || string(b) != `[{"ref":{"type":"action_id","value":"b"},"display_name":"Second"},{"ref":{"type":"action_id","value":"a"},"display_name":"First"}]` {
		t.Fatalf("%s %v", b, d)
	}
	if m.ID.ValueString() != "post-login" || m.Trigger.ValueString() != "post-login" {
		t.Fatalf("%v", m)
	}
	// No bindings: an empty list, never null, and an empty PATCH list.
	if d := m.fromAPI(ctx, "post-login", nil); d.HasError() || m.Actions.IsNull() || len(m.Actions.Elements()) != 0 {
		t.Fatalf("%v %v", m.Actions, d)
	}
	if body, _ := m.toAPI(ctx); body == nil || len(body) != 0 {
		t.Fatalf("%v", body)
	}
}

func TestModel_planned(t *testing.T) {
	ctx := context.Background()
	item := func(id types.String) attr.Value {
		return types.ObjectValueMust(boundActionType.AttrTypes, map[string]attr.Value{"id": id, "display_name": types.StringValue("d")})
	}
	m := bindingsModel{Actions: types.ListValueMust(boundActionType, []attr.Value{item(types.StringValue("a")), item(types.StringUnknown()), item(types.StringValue("c"))})}
	p, d := m.planned(ctx)
	if d.HasError() || p.Complete || !p.Binds("a") || !p.Binds("c") || len(p.IDs) != 2 {
		t.Fatalf("%+v %v", p, d)
	}
	m.Actions = types.ListValueMust(boundActionType, []attr.Value{item(types.StringValue("a"))})
	if p, _ := m.planned(ctx); !p.Complete || !p.Binds("a") {
		t.Fatalf("%+v", p)
	}
}

func TestTriggers(t *testing.T) {
	for _, tr := range triggers() {
		if tr == "custom-token-exchange" {
			t.Fatal("the entity-bound trigger is among the triggers of bindings")
		}
	}
	if len(triggers()) != 7 {
		t.Fatalf("triggers %v", triggers())
	}
}
