package acctest

import (
	"context"
	"fmt"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// Large is what the large-collection configurations need in the tenant: an
// API that defines scopes "scope:0" … "scope:<max>" and a role, both made
// outside the configurations.
type Large struct {
	API    string
	RoleID string
	prefix string
}

// SetUpLarge creates, through c, an API with max+1 scopes (so a role holding
// max of them can swap one) and a role.
func SetUpLarge(ctx context.Context, c *mgmt.Client, prefix string, max int) (Large, error) {
	scopes := make([]mgmt.ResourceServerScope, max+1)
	for i := range scopes {
		scopes[i] = mgmt.ResourceServerScope{Value: fmt.Sprintf("scope:%d", i), Description: fmt.Sprintf("Scope %d", i)}
	}
	l := Large{API: "https://large.example.com/" + prefix, prefix: prefix}
	if _, err := c.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: l.API, Scopes: &scopes}); err != nil {
		return l, err
	}
	role, err := c.CreateRole(ctx, mgmt.Role{Name: prefix + "-large"})
	if err != nil {
		return l, err
	}
	l.RoleID = role.ID
	return l, nil
}

// EditedScope is the scope whose description the edited configurations change.
const EditedScope = "scope:7"

// ScopesConfig is one API of its own with n scopes; edited changes the
// description of EditedScope only.
func (l Large) ScopesConfig(n int, edited bool) string {
	desc := `"Scope ${i}"`
	if edited {
		desc = `"${i == 7 ? "Edited scope" : "Scope"} ${i}"`
	}
	return fmt.Sprintf(`
resource "tenant_resource_server" "large" {
  identifier = "https://large-tf.example.com/%[1]s/%[2]d"
  name       = "large %[2]d"
  scopes     = { for i in range(%[2]d) : "scope:${i}" => %[3]s }
}
`, l.prefix, n, desc)
}

// PermissionsConfig is the role's n permissions on the API; edited swaps
// one name (scope:0 for scope:<n>), reversed writes them in the opposite
// order (which is no change).
func (l Large) PermissionsConfig(n int, edited, reversed bool) string {
	first := 0
	if edited {
		first = 1
	}
	order := fmt.Sprintf("range(%d, %d)", first, first+n)
	if reversed {
		order = fmt.Sprintf("reverse(%s)", order)
	}
	return fmt.Sprintf(`
resource "tenant_role_permissions" "large" {
  role_id = %[1]q
  permissions = {
    %[2]q = [for i in %[3]s : "scope:${i}"]
  }
}
`, l.RoleID, l.API, order)
}

// ChangedLines returns the lines of a human-readable plan's actions that
// change a value, those that start with ~, + or - after indentation, with
// runs of spaces (alignment) shown as one.
func ChangedLines(plan string) []string {
	_, actions, found := strings.Cut(plan, "Terraform will perform the following actions:")
	if !found {
		_, actions, _ = strings.Cut(plan, "OpenTofu will perform the following actions:")
	}
	var out []string
	for _, line := range strings.Split(actions, "\n") {
		t := strings.Join(strings.Fields(line), " ")
		if strings.HasPrefix(t, "~ ") || strings.HasPrefix(t, "+ ") || strings.HasPrefix(t, "- ") {
			out = append(out, t)
		}
	}
	return out
}
