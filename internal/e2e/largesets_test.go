package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

const largeSet = 1000

// largeSetCase is one resource with largeSet elements in its set: an API's
// scopes, or a role's permissions on an API made outside Terraform.
type largeSetCase struct {
	name   string
	config func(emu *emulator.Server, desc string) string
}

func largeSetCases(tb testing.TB, emu *emulator.Server) []largeSetCase {
	tb.Helper()
	ctx := context.Background()
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		tb.Fatal(err)
	}
	scopes := make([]mgmt.ResourceServerScope, largeSet)
	for i := range scopes {
		scopes[i] = mgmt.ResourceServerScope{Value: fmt.Sprintf("scope:%d", i)}
	}
	if _, err := c.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: "https://large.example.com", Scopes: &scopes}); err != nil {
		tb.Fatal(err)
	}
	role, err := c.CreateRole(ctx, mgmt.Role{Name: "large"})
	if err != nil {
		tb.Fatal(err)
	}
	return []largeSetCase{
		{"scopes", func(_ *emulator.Server, desc string) string {
			return fmt.Sprintf(`
resource "tenant_resource_server" "large" {
  name       = "large"
  identifier = "https://large-tf.example.com"
  scopes     = [for i in range(%[2]d) : { value = "scope:${i}", description = "%[1]s ${i}" }]
}
`, desc, largeSet)
		}},
		{"permissions", func(_ *emulator.Server, desc string) string {
			// desc reverses the order the pairs are written in, a change that is none.
			order := "i"
			if desc == "edited" {
				order = fmt.Sprintf("%d - i", largeSet-1)
			}
			return fmt.Sprintf(`
resource "tenant_role_permissions" "large" {
  role_id = %q
  permissions = [for i in range(%d) : {
    resource_server_identifier = "https://large.example.com"
    permission_name            = "scope:${%s}"
  }]
}
`, role.ID, largeSet, order)
		}},
	}
}

// TestLargeSets_planEmpty applies a resource whose set holds 1,000 elements,
// changes every element (or only their order), and checks after each apply
// that the next plan is empty.
func TestLargeSets_planEmpty(t *testing.T) {
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	for _, tc := range largeSetCases(t, emu) {
		t.Run(tc.name, func(t *testing.T) {
			provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
			cli := acctest.NewCLI(t, map[string]string{"main.tf": provider + tc.config(emu, "first")})
			for _, desc := range []string{"first", "edited"} {
				cli.Write(t, "main.tf", provider+tc.config(emu, desc))
				if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
					t.Fatalf("apply (%s): %v\n%s", desc, err, out)
				}
				if out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
					t.Fatalf("plan after apply (%s) is not empty: %v\n%s", desc, err, out)
				}
			}
			if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil || !strings.Contains(out, "Destroy complete") {
				t.Fatalf("destroy: %v\n%s", err, out)
			}
		})
	}
}

// BenchmarkNoChangePlan measures `terraform plan` (Terraform and the provider
// together, wall time) of one resource whose set holds 1,000 elements, after
// it was applied: an API's scopes, a role's permissions. Run it with
// TF_ACC=1 go test -run '^$' -bench NoChangePlan -benchtime 5x ./internal/e2e
func BenchmarkNoChangePlan(b *testing.B) {
	if !acc() {
		b.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer emu.Close()
	for _, tc := range largeSetCases(b, emu) {
		b.Run(fmt.Sprintf("%s=%d", tc.name, largeSet), func(b *testing.B) {
			provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
			cli := acctest.NewCLI(b, map[string]string{"main.tf": provider + tc.config(emu, "bench")})
			if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
				b.Fatalf("apply: %v\n%s", err, out)
			}
			for b.Loop() {
				if out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
					b.Fatalf("plan is not empty: %v\n%s", err, out)
				}
			}
		})
	}
}
