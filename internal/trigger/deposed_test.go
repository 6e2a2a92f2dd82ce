package trigger_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/provider"
)

// TestTriggerActions_deposedRefreshedLast: the order of a plan that
// Terraform does not take with the CLI here (see
// TestAccTriggerActions_deposedObject), called as Terraform calls the
// provider: the live object of a trigger is refreshed and planned (no
// change), then a deposed object of the same trigger is refreshed. Its
// refresh marks it superseded, in the state Terraform keeps for the apply,
// whose run plans its destroy again from that state: the delete sends
// nothing, and the trigger keeps its actions. A destroy from a plain
// refresh (nothing claimed the trigger before it) unbinds them, as the
// destroy of the resource does.
func TestTriggerActions_deposedRefreshedLast(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	ctx := context.Background()
	a := target.Action(t, "post-login", true)
	if _, err := target.Client().UpdateTriggerBindings(ctx, "post-login", []mgmt.BindingUpdate{
		{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: a}, DisplayName: "a"},
	}); err != nil {
		t.Fatal(err)
	}
	destroyAfter := func(t *testing.T, livePlansFirst bool) (patches int64) {
		t.Helper()
		plan := newServer(t, target)
		state := plan.bindings("post-login", a, "a")
		if livePlansFirst {
			live := plan.read(t, state, nil)
			plan.planUpdate(t, live)
		}
		deposed := plan.read(t, state, nil)

		apply := newServer(t, target) // the apply's run
		emu.ResetStats()
		apply.destroy(t, deposed)
		return emu.Stats().ByRoute["PATCH /api/v2/actions/triggers/{trigger}/bindings"]
	}
	if n := destroyAfter(t, true); n != 0 {
		t.Fatalf("the deposed object's destroy sent %d PATCH(es), want none", n)
	}
	if err := checkBound(target, "post-login", bound{a, "a"})(nil); err != nil {
		t.Fatal(err)
	}
	if n := destroyAfter(t, false); n != 1 {
		t.Fatalf("a plain destroy sent %d PATCH(es), want 1", n)
	}
	if err := checkUnbound(target, "post-login")(nil); err != nil {
		t.Fatal(err)
	}
}

// protocolServer is a configured provider server of one run, and the
// schema type of tenant_trigger_actions.
type protocolServer struct {
	srv tfprotov6.ProviderServer
	typ tftypes.Object
}

func newServer(t *testing.T, target *acctest.Target) *protocolServer {
	t.Helper()
	ctx := context.Background()
	srv := provider.NewServer("test")()
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, schemas.Diagnostics)
	}
	ptyp := schemas.Provider.ValueType().(tftypes.Object)
	values := map[string]tftypes.Value{}
	for name, typ := range ptyp.AttributeTypes {
		values[name] = tftypes.NewValue(typ, nil)
	}
	for name, v := range map[string]string{"domain": target.Domain, "client_id": target.ClientID, "client_secret": target.ClientSecret} {
		values[name] = tftypes.NewValue(tftypes.String, v)
	}
	cfg := dynamic(t, ptyp, tftypes.NewValue(ptyp, values))
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	return &protocolServer{srv: srv, typ: schemas.ResourceSchemas["tenant_trigger_actions"].ValueType().(tftypes.Object)}
}

func dynamic(t *testing.T, typ tftypes.Type, v tftypes.Value) tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return dv
}

// bindings is the state of a tenant_trigger_actions of trigger binding one
// action.
func (s *protocolServer) bindings(trigger, id, name string) tftypes.Value {
	item := s.typ.AttributeTypes["actions"].(tftypes.List).ElementType.(tftypes.Object)
	return tftypes.NewValue(s.typ, map[string]tftypes.Value{
		"id":      tftypes.NewValue(tftypes.String, trigger),
		"trigger": tftypes.NewValue(tftypes.String, trigger),
		"actions": tftypes.NewValue(tftypes.List{ElementType: item}, []tftypes.Value{tftypes.NewValue(item, map[string]tftypes.Value{
			"id":           tftypes.NewValue(tftypes.String, id),
			"display_name": tftypes.NewValue(tftypes.String, name),
		})}),
	})
}

// object is a state and its private data, as Terraform keeps them.
type object struct {
	state   tfprotov6.DynamicValue
	private []byte
}

func (s *protocolServer) read(t *testing.T, state tftypes.Value, private []byte) object {
	t.Helper()
	cur := dynamic(t, s.typ, state)
	resp, err := s.srv.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: "tenant_trigger_actions", CurrentState: &cur, Private: private})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("read: %v %v", err, resp.Diagnostics)
	}
	return object{state: *resp.NewState, private: resp.Private}
}

// planUpdate plans the object with its own values as the configuration.
func (s *protocolServer) planUpdate(t *testing.T, o object) {
	t.Helper()
	v, err := o.state.Unmarshal(s.typ)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	attrs["id"] = tftypes.NewValue(tftypes.String, nil)
	cfg := dynamic(t, s.typ, tftypes.NewValue(s.typ, attrs))
	resp, err := s.srv.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "tenant_trigger_actions", PriorState: &o.state, ProposedNewState: &o.state, Config: &cfg, PriorPrivate: o.private,
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("plan: %v %v", err, resp.Diagnostics)
	}
}

// destroy plans the object's destroy and applies it, as Terraform does for
// a deposed object during the apply.
func (s *protocolServer) destroy(t *testing.T, o object) {
	t.Helper()
	ctx := context.Background()
	null := dynamic(t, s.typ, tftypes.NewValue(s.typ, nil))
	plan, err := s.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: "tenant_trigger_actions", PriorState: &o.state, ProposedNewState: &null, Config: &null, PriorPrivate: o.private,
	})
	if err != nil || len(plan.Diagnostics) > 0 {
		t.Fatalf("plan of the destroy: %v %v", err, plan.Diagnostics)
	}
	resp, err := s.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: "tenant_trigger_actions", PriorState: &o.state, PlannedState: plan.PlannedState, Config: &null, PlannedPrivate: plan.PlannedPrivate,
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("destroy: %v %v", err, resp.Diagnostics)
	}
}
