package transitions_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func TestTransitions_role(t *testing.T) {
	walk(t, func(t *testing.T, _ *acctest.Target) walker {
		return &roleWalker{name: acctest.RandomName()}
	})
}

type roleWalker struct{ name string }

// roleConfig is a tenant_role configuration.
type roleConfig struct {
	name        string
	description *string
}

func (w *roleWalker) First(r *rand.Rand) config {
	c := &roleConfig{name: w.name}
	w.mutate(r, c)
	return c
}

func (w *roleWalker) Next(r *rand.Rand, prev config) config {
	c := *prev.(*roleConfig)
	w.mutate(r, &c)
	return &c
}

func (w *roleWalker) mutate(r *rand.Rand, c *roleConfig) {
	str := func(s string) *string { return &s }
	if maybe(r, 2) {
		// Renamed in place, at the length bounds (1 and 50 characters) now
		// and then.
		c.name = pick(r, w.name, w.name+"-2", "r", w.name+strings.Repeat("ß", 50-len(w.name)))
	} else {
		c.description = pick(r, nil, str(""), str("Support staff"), str(strings.Repeat("ü", 140)))
	}
}

func (c *roleConfig) Address() string        { return "tenant_role.walk" }
func (c *roleConfig) ImportIgnore() []string { return nil }

func (c *roleConfig) HCL() string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"tenant_role\" \"walk\" {\n  name = %q\n", c.name)
	if c.description != nil {
		fmt.Fprintf(&b, "  description = %q\n", *c.description)
	}
	b.WriteString("}\n")
	return b.String()
}

func (c *roleConfig) Check(st emulator.State) error {
	if len(st.Roles) != 1 {
		return fmt.Errorf("the tenant holds %d roles, want 1", len(st.Roles))
	}
	got := decode(st.Roles[0])
	desc := ""
	if c.description != nil {
		desc = *c.description
	}
	want := map[string]any{"id": got["id"], "name": c.name, "description": desc, "type": "tenant", "permissions": []any{}}
	return diff("the role", got, want)
}

func (w *roleWalker) Gone(st emulator.State) error {
	if n := len(st.Roles); n != 0 {
		return fmt.Errorf("%d roles left after destroy", n)
	}
	return nil
}
