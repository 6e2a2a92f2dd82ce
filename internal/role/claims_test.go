package role

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestRoleClaims_secondTypeWarnsOnce(t *testing.T) {
	c := newRoleClaims()
	a, b := new(mgmt.Client), new(mgmt.Client)
	steps := []struct {
		client *mgmt.Client
		role   string
		typ    string
		want   string
	}{
		{a, "rol_1", PermissionTypeName, ""},
		{a, "rol_1", PermissionTypeName, ""},
		{a, "rol_2", PermissionsExclusiveTypeName, ""},
		{b, "rol_1", PermissionsExclusiveTypeName, ""}, // another provider configuration
		{a, "rol_1", PermissionsExclusiveTypeName, PermissionTypeName},
		{a, "rol_1", PermissionsExclusiveTypeName, ""}, // warned already
		{a, "rol_1", PermissionTypeName, ""},
		{a, "rol_2", PermissionTypeName, PermissionsExclusiveTypeName},
		{nil, "rol_1", PermissionsExclusiveTypeName, ""},
		{a, "", PermissionsExclusiveTypeName, ""},
	}
	for i, s := range steps {
		if got := strings.Join(c.claim(s.client, s.role, s.typ), ","); got != s.want {
			t.Fatalf("step %d (%s %s): got %q, want %q", i, s.role, s.typ, got, s.want)
		}
	}
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
}

func TestRoleClaims_concurrentClaimsWarnOnce(t *testing.T) {
	c := newRoleClaims()
	client := new(mgmt.Client)
	var warnings atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			typ := PermissionsExclusiveTypeName
			if i%2 == 0 {
				typ = PermissionTypeName
			}
			if len(c.claim(client, fmt.Sprintf("rol_%d", i%4), typ)) > 0 {
				warnings.Add(1)
			}
		}()
	}
	wg.Wait()
	// Roles 0 and 2 only get the one-pair type, 1 and 3 only the other.
	if n := warnings.Load(); n != 0 {
		t.Fatalf("%d warnings for roles claimed by one type each", n)
	}
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if len(c.claim(client, "rol_0", []string{PermissionsExclusiveTypeName, PermissionTypeName}[i%2])) > 0 {
				warnings.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := warnings.Load(); n != 1 {
		t.Fatalf("%d warnings, want 1", n)
	}
	runtime.KeepAlive(client)
}

func TestRoleClaims_forgetsCollectedClients(t *testing.T) {
	c := newRoleClaims()
	func() {
		client := new(mgmt.Client)
		c.claim(client, "rol_1", PermissionsExclusiveTypeName)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for c.len() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the entries of a collected client are still held")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// plan runs a type's ModifyPlan for a create of roleID (unknown when "")
// through client, and returns its warnings.
func plan(t *testing.T, r resource.Resource, roleID string) string {
	t.Helper()
	ctx := context.Background()
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx)
	req := resource.ModifyPlanRequest{
		State: tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)},
		Plan:  tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)},
	}
	role := types.StringValue(roleID)
	if roleID == "" {
		role = types.StringUnknown()
	}
	var diags diag.Diagnostics
	switch r.(type) {
	case *permissionsExclusiveResource:
		var m permissionsExclusiveModel
		diags.Append(m.fromPairs("x", []mgmt.Permission{{ResourceServerIdentifier: "https://a", PermissionName: "p"}})...)
		m.ID, m.RoleID = types.StringUnknown(), role
		diags.Append(req.Plan.Set(ctx, &m)...)
	default:
		m := permissionModel{
			ID:                       types.StringUnknown(),
			RoleID:                   role,
			ResourceServerIdentifier: types.StringValue("https://a"),
			PermissionName:           types.StringValue("p"),
		}
		diags.Append(req.Plan.Set(ctx, &m)...)
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.(resource.ResourceWithModifyPlan).ModifyPlan(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	var out []string
	for _, w := range resp.Diagnostics.Warnings() {
		out = append(out, w.Summary()+": "+w.Detail())
	}
	return strings.Join(out, "\n")
}

func TestModifyPlan_warnsWhenBothTypesManageARole(t *testing.T) {
	client := new(mgmt.Client)
	all := &permissionsExclusiveResource{WithClient: framework.WithClient{API: client}}
	one := &permissionResource{WithClient: framework.WithClient{API: client}}
	other := &permissionResource{WithClient: framework.WithClient{API: new(mgmt.Client)}}
	role := "rol_" + t.Name()
	if got := plan(t, one, role); got != "" {
		t.Fatalf("first claim warned: %s", got)
	}
	if got := plan(t, other, role+"x"); got != "" {
		t.Fatalf("another role warned: %s", got)
	}
	if got := plan(t, all, ""); got != "" {
		t.Fatalf("an unknown role id warned: %s", got)
	}
	got := plan(t, all, role)
	for _, want := range []string{"Role permissions managed by two resource types", fmt.Sprintf("role %q", role), PermissionsExclusiveTypeName, PermissionTypeName, "never settles"} {
		if !strings.Contains(got, want) {
			t.Fatalf("warning %q lacks %q", got, want)
		}
	}
	if got := plan(t, one, role); got != "" {
		t.Fatalf("warned twice: %s", got)
	}
	// The other order, on another role.
	role2 := role + "-2"
	if got := plan(t, all, role2); got != "" {
		t.Fatalf("first claim warned: %s", got)
	}
	if got := plan(t, one, role2); !strings.Contains(got, "managed by two resource types") {
		t.Fatalf("second type did not warn: %q", got)
	}
	runtime.KeepAlive(client)
}

// TestRoleReads_concurrentReadsShareOneRequest: reads of one role in flight
// together cost one paged read; a read after a write starts afresh.
func TestRoleReads_concurrentReadsShareOneRequest(t *testing.T) {
	emu, client, roleID := emulatorRole(t)
	ctx := context.Background()
	const route = "GET /api/v2/roles/{id}/permissions"
	emu.SetFaults(emulator.Faults{LatencyMS: 200})
	s := &roleReads{calls: map[readKey]*readCall{}}
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.get(ctx, client, roleID); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := emu.Stats().ByRoute[route]; n != 1 {
		t.Fatalf("%d reads for 10 concurrent readers, want 1", n)
	}
	emu.SetFaults(emulator.Faults{})
	if _, err := s.get(ctx, client, roleID); err != nil {
		t.Fatal(err)
	}
	if n := emu.Stats().ByRoute[route]; n != 2 {
		t.Fatalf("%d reads, want 2: a read that starts after the others ended must not reuse their answer", n)
	}
	if len(s.calls) != 0 {
		t.Fatalf("%d reads left behind", len(s.calls))
	}
}

// TestRoleReads_writeForgetsTheReadInFlight: a read that starts after a
// write does not join a read that started before it.
func TestRoleReads_writeForgetsTheReadInFlight(t *testing.T) {
	emu, client, roleID := emulatorRole(t)
	const route = "GET /api/v2/roles/{id}/permissions"
	emu.SetFaults(emulator.Faults{LatencyMS: 300})
	s := &roleReads{calls: map[readKey]*readCall{}}
	ctx := context.Background()
	done := make(chan error)
	go func() {
		_, err := s.get(ctx, client, roleID)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	s.forget(client, roleID)
	if _, err := s.get(ctx, client, roleID); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := emu.Stats().ByRoute[route]; n != 2 {
		t.Fatalf("%d reads, want 2", n)
	}
	if len(s.calls) != 0 {
		t.Fatalf("%d reads left behind", len(s.calls))
	}
}

func emulatorRole(t *testing.T) (*emulator.Server, *mgmt.Client, string) {
	t.Helper()
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	client, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	role, err := client.CreateRole(context.Background(), mgmt.Role{Name: "shared-reads"})
	if err != nil {
		t.Fatal(err)
	}
	return emu, client, role.ID
}
