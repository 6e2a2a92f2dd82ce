package transitions_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestTransitions_tokenExchangeProfile(t *testing.T) {
	walk(t, func(t *testing.T, target *acctest.Target) walker {
		return &profileWalker{
			actions: [2]string{
				target.Action(t, mgmt.TriggerCustomTokenExchange, true),
				target.Action(t, mgmt.TriggerCustomTokenExchange, true),
			},
			stt: "urn:walk:" + acctest.RandomName(),
		}
	})
}

type profileWalker struct {
	actions [2]string
	stt     string
}

// profileConfig is a tenant_token_exchange_profile configuration.
type profileConfig struct {
	name    *string
	stt     string
	action  string
	typeSet bool
	// held is the name the profile has from earlier steps ("" before it
	// exists, and for a replacement): without name, a profile keeps its
	// name, and a create names it after its subject token type.
	held string
}

// holds is the name the profile has once c is applied.
func (c *profileConfig) holds() string {
	switch {
	case c.name != nil:
		return *c.name
	case c.held != "":
		return c.held
	}
	r := []rune(c.stt)
	return string(r[:min(len(r), 50)])
}

func (w *profileWalker) First(r *rand.Rand) config {
	c := &profileConfig{stt: w.stt, action: w.actions[0]}
	w.mutate(r, c)
	return c
}

func (w *profileWalker) Next(r *rand.Rand, prev config) config {
	p := prev.(*profileConfig)
	c := *p
	c.held = p.holds()
	for range 1 + r.IntN(2) {
		w.mutate(r, &c)
	}
	if c.action != p.action {
		// A replacement: a new profile, named anew.
		c.held = ""
	}
	return &c
}

func (w *profileWalker) mutate(r *rand.Rand, c *profileConfig) {
	str := func(s string) *string { return &s }
	switch r.IntN(4) {
	case 0:
		c.name = pick(r, nil, str("abc"), str(strings.Repeat("ü", 50)), str("Legacy IdP tokens"))
	case 1:
		// In place; at both length bounds (8 and 100 characters).
		c.stt = pick(r, w.stt, w.stt+"/v2", "urn:a:bc", "urn:x:"+strings.Repeat("é", 94))
	case 2:
		// A replacement.
		c.action = pick(r, w.actions[0], w.actions[1])
	case 3:
		c.typeSet = !c.typeSet
	}
}

func (c *profileConfig) Address() string        { return "tenant_token_exchange_profile.walk" }
func (c *profileConfig) ImportIgnore() []string { return nil }

func (c *profileConfig) HCL() string {
	var b strings.Builder
	b.WriteString("resource \"tenant_token_exchange_profile\" \"walk\" {\n")
	if c.name != nil {
		fmt.Fprintf(&b, "  name = %q\n", *c.name)
	}
	fmt.Fprintf(&b, "  subject_token_type = %q\n  action_id = %q\n", c.stt, c.action)
	if c.typeSet {
		b.WriteString("  type = \"custom_authentication\"\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func (c *profileConfig) Check(st emulator.State) error {
	if len(st.TokenExchangeProfiles) != 1 {
		return fmt.Errorf("the tenant holds %d token exchange profiles, want 1", len(st.TokenExchangeProfiles))
	}
	got := decode(st.TokenExchangeProfiles[0])
	want := map[string]any{
		"name": c.holds(), "subject_token_type": c.stt, "action_id": c.action, "type": "custom_authentication",
		"id": got["id"], "created_at": got["created_at"], "updated_at": got["updated_at"],
	}
	return diff("the profile", got, want)
}

func (w *profileWalker) Gone(st emulator.State) error {
	if n := len(st.TokenExchangeProfiles); n != 0 {
		return fmt.Errorf("%d profiles left after destroy", n)
	}
	return nil
}
