package transitions_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestTransitions_rolePermissions(t *testing.T) {
	walk(t, func(t *testing.T, target *acctest.Target) walker {
		w := &permissionsWalker{roles: [2]string{target.Role(t).ID, target.Role(t).ID}}
		for i := range 2 {
			ident := fmt.Sprintf("https://api.example.com/%s/%d", acctest.RandomName(), i)
			scopes := []mgmt.ResourceServerScope{{Value: "read"}, {Value: "write"}, {Value: strings.Repeat("p", 280)}}
			if _, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: ident, Scopes: &scopes}); err != nil {
				t.Fatal(err)
			}
			for _, s := range scopes {
				w.pool = append(w.pool, mgmt.Permission{ResourceServerIdentifier: ident, PermissionName: s.Value})
			}
		}
		return w
	})
}

type permissionsWalker struct {
	roles [2]string
	pool  []mgmt.Permission
}

// permissionsConfig is a tenant_role_permissions configuration.
type permissionsConfig struct {
	role  string
	pairs []mgmt.Permission
	other string // the walk's other role, which must hold nothing
}

func (w *permissionsWalker) First(r *rand.Rand) config {
	return &permissionsConfig{role: w.roles[0], other: w.roles[1], pairs: w.subset(r)}
}

func (w *permissionsWalker) Next(r *rand.Rand, prev config) config {
	c := *prev.(*permissionsConfig)
	if maybe(r, 6) {
		c.role, c.other = c.other, c.role // a replacement
	}
	c.pairs = w.subset(r)
	return &c
}

// subset is a random non-empty subset of the pool, in a random order.
func (w *permissionsWalker) subset(r *rand.Rand) []mgmt.Permission {
	for {
		var out []mgmt.Permission
		for _, p := range w.pool {
			if r.IntN(2) == 0 {
				out = append(out, p)
			}
		}
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		if len(out) > 0 {
			return out
		}
	}
}

func (c *permissionsConfig) Address() string        { return "tenant_role_permissions.walk" }
func (c *permissionsConfig) ImportIgnore() []string { return nil }

// HCL writes the pairs grouped by API, the names of each in the order the
// walk chose them (the order must not matter).
func (c *permissionsConfig) HCL() string {
	byAPI := map[string][]string{}
	var apis []string
	for _, p := range c.pairs {
		if _, ok := byAPI[p.ResourceServerIdentifier]; !ok {
			apis = append(apis, p.ResourceServerIdentifier)
		}
		byAPI[p.ResourceServerIdentifier] = append(byAPI[p.ResourceServerIdentifier], fmt.Sprintf("%q", p.PermissionName))
	}
	var items []string
	for _, ident := range apis {
		items = append(items, fmt.Sprintf("    %q = [%s]", ident, strings.Join(byAPI[ident], ", ")))
	}
	return fmt.Sprintf("resource \"tenant_role_permissions\" \"walk\" {\n  role_id = %q\n  permissions = {\n%s\n  }\n}\n", c.role, strings.Join(items, "\n"))
}

func rolePairs(st emulator.State, roleID string) ([]string, bool) {
	for _, raw := range st.Roles {
		role := decode(raw)
		if role["id"] != roleID {
			continue
		}
		var out []string
		perms, _ := role["permissions"].([]any)
		for _, p := range perms {
			m := p.(map[string]any)
			out = append(out, fmt.Sprintf("%s|%s", m["resource_server_identifier"], m["permission_name"]))
		}
		sort.Strings(out)
		return out, true
	}
	return nil, false
}

func (c *permissionsConfig) Check(st emulator.State) error {
	got, ok := rolePairs(st, c.role)
	if !ok {
		return fmt.Errorf("the role %s is gone", c.role)
	}
	var want []string
	for _, p := range c.pairs {
		want = append(want, p.ResourceServerIdentifier+"|"+p.PermissionName)
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("role %s holds\n  %s\nwant\n  %s", c.role, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if other, _ := rolePairs(st, c.other); len(other) != 0 {
		return fmt.Errorf("the other role %s still holds %v", c.other, other)
	}
	return nil
}

func (w *permissionsWalker) Gone(st emulator.State) error {
	for _, role := range w.roles {
		if pairs, _ := rolePairs(st, role); len(pairs) != 0 {
			return fmt.Errorf("role %s still holds %d permissions after destroy", role, len(pairs))
		}
	}
	return nil
}

func TestTransitions_rolePermission(t *testing.T) {
	walk(t, func(t *testing.T, target *acctest.Target) walker {
		w := &permissionsWalker{roles: [2]string{target.Role(t).ID, target.Role(t).ID}}
		ident := "https://api.example.com/" + acctest.RandomName()
		scopes := []mgmt.ResourceServerScope{{Value: "read"}, {Value: "write"}, {Value: strings.Repeat("p", 280)}}
		if _, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: ident, Scopes: &scopes}); err != nil {
			t.Fatal(err)
		}
		for _, s := range scopes {
			w.pool = append(w.pool, mgmt.Permission{ResourceServerIdentifier: ident, PermissionName: s.Value})
		}
		return &pairWalker{w}
	})
}

// pairWalker walks tenant_role_permission: one pair, every change a
// replacement.
type pairWalker struct{ *permissionsWalker }

type pairConfig struct{ permissionsConfig }

func (w *pairWalker) First(r *rand.Rand) config {
	return &pairConfig{permissionsConfig{role: w.roles[0], other: w.roles[1], pairs: []mgmt.Permission{pick(r, w.pool...)}}}
}

func (w *pairWalker) Next(r *rand.Rand, prev config) config {
	c := *prev.(*pairConfig)
	if maybe(r, 3) {
		c.role, c.other = c.other, c.role
	} else {
		c.pairs = []mgmt.Permission{pick(r, w.pool...)}
	}
	return &c
}

func (c *pairConfig) Address() string { return "tenant_role_permission.walk" }

func (c *pairConfig) HCL() string {
	p := c.pairs[0]
	return fmt.Sprintf("resource \"tenant_role_permission\" \"walk\" {\n  role_id = %q\n  resource_server_identifier = %q\n  permission_name = %q\n}\n",
		c.role, p.ResourceServerIdentifier, p.PermissionName)
}
