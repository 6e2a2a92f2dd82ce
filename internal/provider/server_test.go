package provider

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type payloadKey struct{}

// validateRole sends one ValidateResourceConfig for a tenant_role through srv
// with a context that holds a payload, and returns a channel closed once the
// payload is garbage collected.
func validateRole(t testing.TB, srv tfprotov6.ProviderServer) <-chan struct{} {
	t.Helper()
	collected := make(chan struct{})
	payload := make([]byte, 1<<20)
	runtime.AddCleanup(&payload[0], func(ch chan struct{}) { close(ch) }, collected)
	ctx := context.WithValue(context.Background(), payloadKey{}, payload)
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "name": tftypes.String, "description": tftypes.String}}
	cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{
		"id":          tftypes.NewValue(tftypes.String, nil),
		"name":        tftypes.NewValue(tftypes.String, "support"),
		"description": tftypes.NewValue(tftypes.String, nil),
	}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "tenant_role", Config: &cfg})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("validate: %v %v", err, resp.Diagnostics)
	}
	return collected
}

// collectedSoon reports whether ch closes within a few garbage collections.
func collectedSoon(ch <-chan struct{}) bool { return collectedWithin(ch, 20) }

// collectedWithin reports whether ch closes within rounds garbage
// collections, 10ms apart: a loaded machine may run the cleanup late.
func collectedWithin(ch <-chan struct{}, rounds int) bool {
	for range rounds {
		runtime.GC()
		select {
		case <-ch:
			return true
		case <-time.After(10 * time.Millisecond):
		}
	}
	return false
}

func newServers(t testing.TB) (framework, ours tfprotov6.ProviderServer) {
	t.Helper()
	framework = providerserver.NewProtocol6(New("test")())()
	ours = NewServer("test")()
	for _, s := range []tfprotov6.ProviderServer{framework, ours} {
		if _, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	return framework, ours
}

// TestNewServer_releasesCallContext: once a call returns, nothing keeps its
// context reachable, where the framework's own server keeps every one (a
// framework release that stops doing so is logged: the wrapper can go then).
func TestNewServer_releasesCallContext(t *testing.T) {
	framework, ours := newServers(t)
	if !collectedWithin(validateRole(t, ours), 1000) {
		t.Fatal("a call's context is still reachable after the call returned")
	}
	if collectedSoon(validateRole(t, framework)) {
		t.Log("the framework's own server no longer keeps call contexts: NewServer's wrapper is not needed any more")
	}
	// Both servers live on, as they do in the provider's process.
	runtime.KeepAlive(framework)
	runtime.KeepAlive(ours)
}

func TestCallContext_forwardsDuringTheCall(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), payloadKey{}, "v"))
	var inner context.Context
	_, err := call(parent, "req", func(ctx context.Context, _ string) (string, error) {
		inner = ctx
		if ctx.Value(payloadKey{}) != "v" || ctx.Err() != nil {
			t.Error("the call's context does not forward to its parent")
		}
		cancel()
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute): // only so that a failing test ends
			t.Error("cancelling the parent does not end the call's context")
		}
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Errorf("Err = %v", ctx.Err())
		}
		return "", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if inner.Value(payloadKey{}) != nil || inner.Err() == nil {
		t.Error("after the call, its context still holds values or is not done")
	}
	select {
	case <-inner.Done():
	default:
		t.Error("after the call, its context is not done")
	}
}

// BenchmarkServer_retained reports the heap a call leaves reachable after it
// returned, through the framework's server and through NewServer's.
func BenchmarkServer_retained(b *testing.B) {
	framework, ours := newServers(b)
	for name, srv := range map[string]tfprotov6.ProviderServer{"framework": framework, "NewServer": ours} {
		b.Run(name, func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for b.Loop() {
				validateRole(b, srv)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.HeapAlloc-min(after.HeapAlloc, before.HeapAlloc))/float64(b.N), "retained-B/op")
		})
	}
}

// TestNewServer_setsOnTheWire: Terraform is told that a role's permission
// names are a set (so it plans a reordered list as no change), while the
// framework handles them as a list.
func TestNewServer_setsOnTheWire(t *testing.T) {
	framework, ours := newServers(t)
	typeOf := func(srv tfprotov6.ProviderServer) tftypes.Type {
		resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || len(resp.Diagnostics) > 0 {
			t.Fatalf("%v %v", err, resp.Diagnostics)
		}
		for _, a := range resp.ResourceSchemas["tenant_role_permissions"].Block.Attributes {
			if a.Name == "permissions" {
				return a.Type
			}
		}
		t.Fatal("no permissions attribute")
		return nil
	}
	if got, want := typeOf(ours), (tftypes.Map{ElementType: tftypes.Set{ElementType: tftypes.String}}); !got.Equal(want) {
		t.Errorf("Terraform is told %v, want %v", got, want)
	}
	if got, want := typeOf(framework), (tftypes.Map{ElementType: tftypes.List{ElementType: tftypes.String}}); !got.Equal(want) {
		t.Errorf("the framework's schema says %v, want %v", got, want)
	}
	// Every other resource's schema is the framework's.
	a, _ := framework.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	b, _ := ours.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	for name, s := range a.ResourceSchemas {
		if name != "tenant_role_permissions" && !reflect.DeepEqual(s, b.ResourceSchemas[name]) {
			t.Errorf("the schema of %s was changed", name)
		}
	}
}
