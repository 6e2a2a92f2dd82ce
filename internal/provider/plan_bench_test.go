package provider_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/client"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/provider"
)

// BenchmarkPlanResourceChange is the provider's CPU for one
// PlanResourceChange of a client and of a grant, as Terraform sends it in a
// no-change plan (the configuration of the bench's clients mode, the state
// the provider wrote after creating it against the emulator) and in a plan
// that changes the client's description. Each "framework floor" runs the
// same call with the same schema, values and server, but the resource has
// no plan modifier and no ModifyPlan: what terraform-plugin-framework costs
// whatever the resource does. On a quiet machine:
//
//	go test -run '^$' -bench PlanResourceChange -benchmem -count 5 ./internal/provider/
func BenchmarkPlanResourceChange(b *testing.B) {
	ctx := context.Background()
	f := newFixture(b)
	srv, floor, emu := f.srv, configured(b, providerserver.NewProtocol6(floorProvider{})(), f.emu), f.emu
	_ = emu
	clientType, clientConfig, clientState := f.clientType, f.clientConfig, f.clientState
	grantType, grantConfig, grantState := f.grantType, f.grantConfig, f.grantState

	changed := tftypes.NewValue(tftypes.String, "changed")
	described, describedState := withAttribute(clientConfig, "description", changed), withAttribute(clientState, "description", changed)
	for _, bc := range []struct {
		name          string
		srv           tfprotov6.ProviderServer
		typeName      string
		typ           tftypes.Type
		config, state tftypes.Value
		proposed      tftypes.Value
		wantProposed  bool // the plan is the proposed state (else not checked)
	}{
		{"client no change", srv, client.TypeName, clientType, clientConfig, clientState, clientState, true},
		{"client no change, framework floor", floor, client.TypeName, clientType, clientConfig, clientState, clientState, true},
		{"client description change", srv, client.TypeName, clientType, described, clientState, describedState, true},
		{"client description change, framework floor", floor, client.TypeName, clientType, described, clientState, describedState, false},
		{"client create", srv, client.TypeName, clientType, clientConfig, tftypes.NewValue(clientType, nil), clientConfig, false},
		{"client create, framework floor", floor, client.TypeName, clientType, clientConfig, tftypes.NewValue(clientType, nil), clientConfig, false},
		{"grant no change", srv, client.GrantTypeName, grantType, grantConfig, grantState, grantState, true},
		{"grant no change, framework floor", floor, client.GrantTypeName, grantType, grantConfig, grantState, grantState, true},
	} {
		req := &tfprotov6.PlanResourceChangeRequest{
			TypeName:         bc.typeName,
			Config:           dynamic(b, bc.typ, bc.config),
			PriorState:       dynamic(b, bc.typ, bc.state),
			ProposedNewState: dynamic(b, bc.typ, bc.proposed),
		}
		b.Run(bc.name, func(b *testing.B) {
			resp, err := bc.srv.PlanResourceChange(ctx, req)
			if err != nil || len(resp.Diagnostics) > 0 {
				b.Fatalf("%v %v", err, diagnostics(resp.Diagnostics))
			}
			if planned, err := resp.PlannedState.Unmarshal(bc.typ); err != nil || bc.wantProposed && !planned.Equal(bc.proposed) {
				b.Fatalf("planned %v (err %v), want %v", planned, err, bc.proposed)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.srv.PlanResourceChange(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRefresh is the provider's CPU for the other calls a no-change
// plan makes of each object, before PlanResourceChange: the state's
// upgrade, the configuration's validation and the refresh (its read served
// from the list pages the provider shares, as in a plan of many objects;
// the benchmark fails if a read makes a request). On a quiet machine:
//
//	go test -run '^$' -bench Refresh -benchmem -count 5 ./internal/provider/
func BenchmarkRefresh(b *testing.B) {
	ctx := context.Background()
	f := newFixture(b)
	for _, o := range []struct {
		name          string
		typeName      string
		typ           tftypes.Type
		config, state tftypes.Value
	}{
		{"client", client.TypeName, f.clientType, f.clientConfig, f.clientState},
		{"grant", client.GrantTypeName, f.grantType, f.grantConfig, f.grantState},
	} {
		raw, err := json.Marshal(stateJSON(o.state))
		if err != nil {
			b.Fatal(err)
		}
		state := dynamic(b, o.typ, o.state)
		calls := map[string]func() ([]*tfprotov6.Diagnostic, error){
			"UpgradeResourceState": func() ([]*tfprotov6.Diagnostic, error) {
				resp, err := f.srv.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: o.typeName, RawState: &tfprotov6.RawState{JSON: raw}})
				return diagsOf(resp, err, func() []*tfprotov6.Diagnostic { return resp.Diagnostics })
			},
			"ValidateResourceConfig": func() ([]*tfprotov6.Diagnostic, error) {
				resp, err := f.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: o.typeName, Config: dynamic(b, o.typ, o.config)})
				return diagsOf(resp, err, func() []*tfprotov6.Diagnostic { return resp.Diagnostics })
			},
			"ReadResource": func() ([]*tfprotov6.Diagnostic, error) {
				resp, err := f.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: o.typeName, CurrentState: state})
				return diagsOf(resp, err, func() []*tfprotov6.Diagnostic { return resp.Diagnostics })
			},
		}
		for _, name := range []string{"UpgradeResourceState", "ValidateResourceConfig", "ReadResource"} {
			call := calls[name]
			b.Run(o.name+" "+name, func(b *testing.B) {
				// The first reads of a run go to the object; the later ones
				// are served from the list pages.
				for range 4 {
					if ds, err := call(); err != nil || len(ds) > 0 {
						b.Fatalf("%v %v", err, diagnostics(ds))
					}
				}
				before := f.emu.Stats().Total
				b.ReportAllocs()
				for b.Loop() {
					if _, err := call(); err != nil {
						b.Fatal(err)
					}
				}
				if n := f.emu.Stats().Total - before; n > 0 {
					b.Fatalf("%d requests in the loop: the call is not the provider's alone", n)
				}
			})
		}
	}
}

// fixture is a configured provider server with a client and a grant
// created through it against the emulator: the configuration of the
// bench's clients mode and the state the provider wrote.
type fixture struct {
	emu                       *emulator.Server
	srv                       tfprotov6.ProviderServer
	clientType, grantType     tftypes.Type
	clientConfig, clientState tftypes.Value
	grantConfig, grantState   tftypes.Value
}

func newFixture(b *testing.B) fixture {
	ctx := context.Background()
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = emu.Close() })
	f := fixture{emu: emu, srv: configured(b, provider.NewServer("bench")(), emu)}
	schemas, err := f.srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	f.clientType = schemas.ResourceSchemas[client.TypeName].ValueType()
	f.grantType = schemas.ResourceSchemas[client.GrantTypeName].ValueType()
	f.clientConfig = objectValue(f.clientType, map[string]tftypes.Value{
		"name":        tftypes.NewValue(tftypes.String, "bench client 0"),
		"app_type":    tftypes.NewValue(tftypes.String, "non_interactive"),
		"grant_types": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "client_credentials")}),
	})
	f.clientState = create(b, f.srv, client.TypeName, f.clientType, f.clientConfig)
	var clientID string
	if err := attribute(f.clientState, "client_id").As(&clientID); err != nil {
		b.Fatal(err)
	}
	f.grantConfig = objectValue(f.grantType, map[string]tftypes.Value{
		"client_id": tftypes.NewValue(tftypes.String, clientID),
		"audience":  tftypes.NewValue(tftypes.String, emu.Audience()),
		"scopes":    tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "read:clients")}),
	})
	f.grantState = create(b, f.srv, client.GrantTypeName, f.grantType, f.grantConfig)
	return f
}

func diagsOf[T any](resp *T, err error, diags func() []*tfprotov6.Diagnostic) ([]*tfprotov6.Diagnostic, error) {
	if err != nil || resp == nil {
		return nil, err
	}
	return diags(), nil
}

// stateJSON is v as Terraform writes it in the state's JSON.
func stateJSON(v tftypes.Value) any {
	switch {
	case v.IsNull():
		return nil
	case v.Type().Is(tftypes.Object{}), v.Type().Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := map[string]any{}
		for k, e := range m {
			out[k] = stateJSON(e)
		}
		return out
	case v.Type().Is(tftypes.List{}), v.Type().Is(tftypes.Set{}):
		var l []tftypes.Value
		_ = v.As(&l)
		out := []any{}
		for _, e := range l {
			out = append(out, stateJSON(e))
		}
		return out
	case v.Type().Is(tftypes.Number):
		var n big.Float
		_ = v.As(&n)
		f, _ := n.Float64()
		return f
	case v.Type().Is(tftypes.Bool):
		var x bool
		_ = v.As(&x)
		return x
	}
	var x string
	_ = v.As(&x)
	return x
}

// configured is srv configured for the emulator.
func configured(b *testing.B, srv tfprotov6.ProviderServer, emu *emulator.Server) tfprotov6.ProviderServer {
	ctx := context.Background()
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	typ := schemas.Provider.ValueType()
	if len(typ.(tftypes.Object).AttributeTypes) == 0 {
		return srv // the floor's provider takes no settings
	}
	config := objectValue(typ, map[string]tftypes.Value{
		"domain":        tftypes.NewValue(tftypes.String, emu.Domain()),
		"client_id":     tftypes.NewValue(tftypes.String, emu.ClientID()),
		"client_secret": tftypes.NewValue(tftypes.String, emu.ClientSecret()),
	})
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: dynamic(b, typ, config)})
	if err != nil || len(resp.Diagnostics) > 0 {
		b.Fatalf("%v %v", err, diagnostics(resp.Diagnostics))
	}
	return srv
}

// create plans and applies the creation of an object of config and
// returns its state.
func create(b *testing.B, srv tfprotov6.ProviderServer, typeName string, typ tftypes.Type, config tftypes.Value) tftypes.Value {
	ctx := context.Background()
	null := dynamic(b, typ, tftypes.NewValue(typ, nil))
	cfg := dynamic(b, typ, config)
	plan, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName, Config: cfg, PriorState: null, ProposedNewState: cfg})
	if err != nil || len(plan.Diagnostics) > 0 {
		b.Fatalf("%v %v", err, diagnostics(plan.Diagnostics))
	}
	applied, err := srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName, Config: cfg, PriorState: null,
		PlannedState: plan.PlannedState, PlannedPrivate: plan.PlannedPrivate})
	if err != nil || len(applied.Diagnostics) > 0 {
		b.Fatalf("%v %v", err, diagnostics(applied.Diagnostics))
	}
	state, err := applied.NewState.Unmarshal(typ)
	if err != nil {
		b.Fatal(err)
	}
	return state
}

// objectValue is an object of typ with the given attributes, the others
// null.
func objectValue(typ tftypes.Type, set map[string]tftypes.Value) tftypes.Value {
	attrs := map[string]tftypes.Value{}
	for name, t := range typ.(tftypes.Object).AttributeTypes {
		attrs[name] = tftypes.NewValue(t, nil)
	}
	for name, v := range set {
		attrs[name] = v
	}
	return tftypes.NewValue(typ, attrs)
}

func attribute(obj tftypes.Value, name string) tftypes.Value {
	var attrs map[string]tftypes.Value
	if err := obj.As(&attrs); err != nil {
		panic(err)
	}
	return attrs[name]
}

func withAttribute(obj tftypes.Value, name string, v tftypes.Value) tftypes.Value {
	var attrs map[string]tftypes.Value
	if err := obj.As(&attrs); err != nil {
		panic(err)
	}
	attrs[name] = v
	return tftypes.NewValue(obj.Type(), attrs)
}

func dynamic(b *testing.B, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		b.Fatal(err)
	}
	return &dv
}

func diagnostics(ds []*tfprotov6.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Summary+": "+d.Detail)
	}
	return out
}

// floorProvider serves the client and the grant with their schemas
// stripped of plan modifiers, and without ModifyPlan: the framework's own
// cost of planning them.
type floorProvider struct{}

func (floorProvider) Metadata(_ context.Context, _ fwprovider.MetadataRequest, resp *fwprovider.MetadataResponse) {
	resp.TypeName = "tenant"
}

func (floorProvider) Schema(context.Context, fwprovider.SchemaRequest, *fwprovider.SchemaResponse) {}

func (floorProvider) Configure(context.Context, fwprovider.ConfigureRequest, *fwprovider.ConfigureResponse) {
}

func (floorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (floorProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return floorResource{client.NewResource()} },
		func() resource.Resource { return floorResource{client.NewGrantResource()} },
	}
}

// floorResource is of's type name and schema without plan modifiers; it
// plans only.
type floorResource struct{ of resource.Resource }

func (r floorResource) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.of.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tenant"}, resp)
}

func (r floorResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.of.Schema(ctx, req, resp)
	resp.Schema.Attributes = withoutPlanModifiers(resp.Schema.Attributes)
}

func (floorResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (floorResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (floorResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (floorResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// withoutPlanModifiers is attrs with no plan modifier at any depth
// (defaults stay: they are part of the schema's plan).
func withoutPlanModifiers(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(attrs))
	for name, a := range attrs {
		switch a := a.(type) {
		case schema.StringAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.BoolAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.Int64Attribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.ListAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.SetAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.MapAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.SingleNestedAttribute:
			a.PlanModifiers = nil
			a.Attributes = withoutPlanModifiers(a.Attributes)
			out[name] = a
		case schema.ListNestedAttribute:
			a.PlanModifiers = nil
			a.NestedObject.Attributes = withoutPlanModifiers(a.NestedObject.Attributes)
			out[name] = a
		default:
			panic("withoutPlanModifiers: add " + name)
		}
	}
	return out
}
