package transitions_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func TestTransitions_triggerActions(t *testing.T) {
	walk(t, func(t *testing.T, target *acctest.Target) walker {
		w := &bindingsWalker{}
		for i := range w.actions {
			w.actions[i] = target.Action(t, "post-login", true)
		}
		return w
	})
}

// bindingsWalker binds some of four deployed post-login actions.
type bindingsWalker struct {
	actions [4]string
}

// binding is one action of a bindingsConfig.
type binding struct {
	id, name string
}

// bindingsConfig is a tenant_trigger_actions configuration.
type bindingsConfig struct {
	bindings []binding
}

func (w *bindingsWalker) First(r *rand.Rand) config {
	c := &bindingsConfig{}
	w.mutate(r, c)
	return c
}

func (w *bindingsWalker) Next(r *rand.Rand, prev config) config {
	c := &bindingsConfig{bindings: append([]binding{}, prev.(*bindingsConfig).bindings...)}
	w.mutate(r, c)
	return c
}

func (w *bindingsWalker) mutate(r *rand.Rand, c *bindingsConfig) {
	switch r.IntN(4) {
	case 0:
		// A new set of actions, in a random order, none at times.
		c.bindings = nil
		for _, i := range r.Perm(len(w.actions))[:r.IntN(len(w.actions)+1)] {
			c.bindings = append(c.bindings, binding{w.actions[i], fmt.Sprintf("Action %d", i)})
		}
	case 1:
		// A reorder.
		r.Shuffle(len(c.bindings), func(i, j int) { c.bindings[i], c.bindings[j] = c.bindings[j], c.bindings[i] })
	case 2:
		// A display name, at times at its lower bound or long.
		if len(c.bindings) > 0 {
			c.bindings[r.IntN(len(c.bindings))].name = pick(r, "x", "Renamed", strings.Repeat("ä", 200))
		}
	case 3:
		// One action added at a random place, or one removed.
		if i := r.IntN(len(w.actions)); !c.binds(w.actions[i]) {
			at := r.IntN(len(c.bindings) + 1)
			c.bindings = append(c.bindings[:at], append([]binding{{w.actions[i], "Added"}}, c.bindings[at:]...)...)
		} else if len(c.bindings) > 0 {
			at := r.IntN(len(c.bindings))
			c.bindings = append(c.bindings[:at], c.bindings[at+1:]...)
		}
	}
}

func (c *bindingsConfig) binds(id string) bool {
	for _, b := range c.bindings {
		if b.id == id {
			return true
		}
	}
	return false
}

func (c *bindingsConfig) Address() string        { return "tenant_trigger_actions.walk" }
func (c *bindingsConfig) ImportIgnore() []string { return nil }

func (c *bindingsConfig) HCL() string {
	var b strings.Builder
	b.WriteString("resource \"tenant_trigger_actions\" \"walk\" {\n  trigger = \"post-login\"\n  actions = [\n")
	for _, x := range c.bindings {
		fmt.Fprintf(&b, "    { id = %q, display_name = %q },\n", x.id, x.name)
	}
	b.WriteString("  ]\n}\n")
	return b.String()
}

// bound is a trigger's bindings in the emulator's state, as id=name.
func bound(st emulator.State, trigger string) []string {
	var out []string
	for _, raw := range st.TriggerBindings[trigger] {
		var b struct {
			DisplayName string `json:"display_name"`
			Action      struct {
				ID string `json:"id"`
			} `json:"action"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			panic(err)
		}
		out = append(out, b.Action.ID+"="+b.DisplayName)
	}
	return out
}

func (c *bindingsConfig) Check(st emulator.State) error {
	var want []string
	for _, b := range c.bindings {
		want = append(want, b.id+"="+b.name)
	}
	if got := bound(st, "post-login"); strings.Join(got, ",") != strings.Join(want, ",") {
		return fmt.Errorf("the trigger runs %v, want %v", got, want)
	}
	return nil
}

func (w *bindingsWalker) Gone(st emulator.State) error {
	if got := bound(st, "post-login"); len(got) != 0 {
		return fmt.Errorf("the trigger still runs %v after destroy", got)
	}
	return nil
}
