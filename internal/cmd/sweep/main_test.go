package main

import (
	"context"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestSweep_actions deletes the prefixed actions, a profile's included, and
// leaves the others.
func TestSweep_actions(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	ctx := context.Background()
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	create := func(name string) *mgmt.Action {
		a, err := c.CreateAction(ctx, mgmt.ActionCreate{
			Name:              name,
			SupportedTriggers: []mgmt.ActionTrigger{{ID: mgmt.TriggerCustomTokenExchange, Version: "v1"}},
			Code:              "exports.onExecuteCustomTokenExchange = async () => {};",
			Deploy:            true,
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitForAction(ctx, a.ID, mgmt.IsDeployed); err != nil {
			t.Fatal(err)
		}
		return a
	}
	ours, theirs, used := create(acctest.RandomName()), create("production-exchange"), create(acctest.RandomName())
	// A profile outside the prefix still names one of ours: force deletes it anyway.
	if _, err := c.CreateTokenExchangeProfile(ctx, mgmt.TokenExchangeProfileCreate{
		Name: "kept", SubjectTokenType: "urn:acme:kept", ActionID: used.ID, Type: "custom_authentication",
	}); err != nil {
		t.Fatal(err)
	}
	if n, err := sweep(ctx, c, true); err != nil || n != 2 {
		t.Fatalf("dry run: %d, %v", n, err)
	}
	if n, err := sweep(ctx, c, false); err != nil || n != 2 {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	for _, a := range []*mgmt.Action{ours, used} {
		if _, err := c.GetAction(ctx, a.ID); !mgmt.IsNotFound(err) {
			t.Errorf("%s not swept: %v", a.Name, err)
		}
	}
	if _, err := c.GetAction(ctx, theirs.ID); err != nil {
		t.Errorf("an action without the prefix was touched: %v", err)
	}
}

// TestSweep_clients deletes the prefixed clients with their grants and
// leaves the others, the emulator's own among them.
func TestSweep_clients(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	ctx := context.Background()
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	ours, err := c.CreateClient(ctx, mgmt.AppClient{Name: mgmt.Ptr(acctest.RandomName())})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := c.CreateClient(ctx, mgmt.AppClient{Name: mgmt.Ptr("production-app")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateClientGrant(ctx, mgmt.ClientGrant{ClientID: ours.ClientID, Audience: c.Audience(), Scope: &[]string{}}); err != nil {
		t.Fatal(err)
	}
	if n, err := sweep(ctx, c, false); err != nil || n != 1 {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	if _, err := c.GetClient(ctx, ours.ClientID); !mgmt.IsNotFound(err) {
		t.Errorf("the prefixed client was not swept: %v", err)
	}
	if g, err := c.FindClientGrant(ctx, ours.ClientID, c.Audience()); err != nil || g != nil {
		t.Errorf("its grant is left: %+v %v", g, err)
	}
	for _, id := range []string{theirs.ClientID, emu.ClientID()} {
		if _, err := c.GetClient(ctx, id); err != nil {
			t.Errorf("the client %s was touched: %v", id, err)
		}
	}
}
