package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// large is the size of the large collections: the platform's limit of
// scopes per API and of permissions per role.
const large = mgmt.MaxPermissionsPerRole

// largeCase is one resource whose collection holds n elements: an API's
// scopes, or a role's permissions on one API.
type largeCase struct {
	name   string
	config func(n int, edited bool) string
	// reordered is config(large, false) with its elements written in
	// another order, which is no change; "" where they have no order.
	reordered string
	// edit is the changed lines of the plan from config(large, false) to
	// config(large, true): the one element edited and what holds it.
	edit []string
}

func largeCases(tb testing.TB, emu *emulator.Server) []largeCase {
	tb.Helper()
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		tb.Fatal(err)
	}
	l, err := acctest.SetUpLarge(context.Background(), c, "e2e", large)
	if err != nil {
		tb.Fatal(err)
	}
	return []largeCase{
		{
			name:   "scopes",
			config: l.ScopesConfig,
			edit: []string{
				`~ resource "tenant_resource_server" "large" {`,
				`~ scopes = {`,
				`~ "scope:7" = "Scope 7" -> "Edited scope 7"`,
			},
		},
		{
			name:      "permissions",
			config:    func(n int, edited bool) string { return l.PermissionsConfig(n, edited, false) },
			reordered: l.PermissionsConfig(large, false, true),
			edit: []string{
				`~ resource "tenant_role_permissions" "large" {`,
				`~ permissions = {`,
				fmt.Sprintf(`~ %q = [`, l.API),
				`- "scope:0",`,
				fmt.Sprintf(`+ "scope:%d",`, large),
			},
		},
	}
}

func startEmulator(tb testing.TB) *emulator.Server {
	tb.Helper()
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = emu.Close() })
	return emu
}

// TestLargeCollections applies a resource whose collection holds 1,000
// elements, then one element changed, and checks after each apply that the
// next plan is empty. Between the two applies, on the same state, it checks
// that the same elements in another order plan no change and that the plan
// of the edit shows the edited element alone: each CLI renders a large
// plan in its own way.
func TestLargeCollections(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	emu := startEmulator(t)
	provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
	for _, tc := range largeCases(t, emu) {
		t.Run(tc.name, func(t *testing.T) {
			cli := acctest.NewCLI(t, map[string]string{"main.tf": provider + tc.config(large, false)})
			// applied applies main.tf and checks that the next plan is empty.
			applied := func(edited bool) {
				t.Helper()
				if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
					t.Fatalf("apply (edited %v): %v\n%s", edited, err, out)
				}
				if out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
					t.Fatalf("plan after apply (edited %v) is not empty: %v\n%s", edited, err, out)
				}
			}
			applied(false)
			if tc.reordered != "" {
				cli.Write(t, "main.tf", provider+tc.reordered)
				if out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
					t.Fatalf("the same elements in another order plan a change: %v\n%s", err, out)
				}
			}
			cli.Write(t, "main.tf", provider+tc.config(large, true))
			out, err := cli.Run("plan", "-input=false", "-no-color")
			if err != nil {
				t.Fatalf("plan of the edit: %v\n%s", err, out)
			}
			checkOneEdit(t, out, tc.edit)
			applied(true)
			if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil || !strings.Contains(out, "Destroy complete") {
				t.Fatalf("destroy: %v\n%s", err, out)
			}
		})
	}
}

// checkOneEdit checks that plan, the human-readable plan of an edit of one
// element of a large collection, changes one resource and shows the lines
// in want alone: the edited element reads as one element.
func checkOneEdit(t *testing.T, plan string, want []string) {
	t.Helper()
	got := acctest.ChangedLines(plan)
	if acctest.OpenTofu(t) {
		// OpenTofu lists every write-only attribute of a resource it
		// updates, set or not, as "~ name = (write-only attribute)".
		got = slices.DeleteFunc(got, func(l string) bool { return strings.HasSuffix(l, "= (write-only attribute)") })
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the plan shows the changed lines\n  %s\nwant\n  %s\nplan:\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), plan)
	}
	if !strings.Contains(plan, "Plan: 0 to add, 1 to change, 0 to destroy.") {
		t.Fatalf("plan:\n%s", plan)
	}
}

// BenchmarkPlan measures `terraform plan` (Terraform and the provider
// together, wall time) of one resource whose collection holds 10 or 1,000
// elements, after it was applied: with no change, and with one element
// edited. Run it with
// TF_ACC=1 go test -run '^$' -bench Plan -benchtime 5x ./internal/e2e
func BenchmarkPlan(b *testing.B) {
	if !acc() {
		b.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	emu := startEmulator(b)
	provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
	for _, tc := range largeCases(b, emu) {
		for _, n := range []int{10, large} {
			cli := acctest.NewCLI(b, map[string]string{"main.tf": provider + tc.config(n, false)})
			if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
				b.Fatalf("apply: %v\n%s", err, out)
			}
			for _, edited := range []bool{false, true} {
				cli.Write(b, "main.tf", provider+tc.config(n, edited))
				name := fmt.Sprintf("%s=%d/no-change", tc.name, n)
				if edited {
					name = fmt.Sprintf("%s=%d/edit-one", tc.name, n)
				}
				b.Run(name, func(b *testing.B) {
					for b.Loop() {
						out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color")
						if changed := err != nil; changed != edited {
							b.Fatalf("plan (edited %v): %v\n%s", edited, err, out)
						}
					}
				})
			}
			if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
				b.Fatalf("destroy: %v\n%s", err, out)
			}
		}
	}
}

// BenchmarkValidate measures `terraform validate` of collections far past
// the API's limits, which must be refused quickly and with the bound, and
// of dependencies, which the API does not bound and which must validate.
// Terraform's range() makes at most 1,024 values, so larger collections are
// built from nested ranges. Run it with
// TF_ACC=1 go test -run '^$' -bench Validate -benchtime 3x ./internal/e2e
func BenchmarkValidate(b *testing.B) {
	if !acc() {
		b.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	// values is a Terraform expression for the numbers 0 … n-1.
	values := func(n int) string {
		return fmt.Sprintf("flatten([for i in range(%d) : [for j in range(100) : i * 100 + j]])", n/100)
	}
	for _, n := range []int{1000, 10000} {
		for _, tc := range []struct {
			name, config, want string
		}{
			{"scopes", fmt.Sprintf(`resource "tenant_resource_server" "x" {
  identifier = "https://x"
  scopes     = { for i in %s : "scope:${i}" => "Scope ${i}" }
}`, values(n)), "at most 1000 elements"},
			{"permissions", fmt.Sprintf(`resource "tenant_role_permissions" "x" {
  role_id     = "rol_x"
  permissions = { "https://x" = [for i in %s : "scope:${i}"] }
}`, values(n)), "at most 1000 elements"},
			{"dependencies", fmt.Sprintf(`resource "tenant_action" "x" {
  name               = "x"
  code               = "exports.onExecuteCustomTokenExchange = async () => {};"
  supported_triggers = { id = "custom-token-exchange", version = "v1" }
  dependencies       = { for i in %s : "pkg-${i}" => { version = "1.0.${i}" } }
}`, values(n)), ""},
		} {
			cli := acctest.NewCLI(b, map[string]string{"main.tf": tc.config})
			want := tc.want
			if n <= 1000 {
				want = "" // within the limits
			}
			b.Run(fmt.Sprintf("%s=%d", tc.name, n), func(b *testing.B) {
				for b.Loop() {
					out, err := cli.Run("validate", "-no-color")
					switch {
					case want == "" && err != nil:
						b.Fatalf("validate refused %d %s: %v\n%s", n, tc.name, err, out)
					case want != "" && (err == nil || !strings.Contains(strings.Join(strings.Fields(out), " "), want)):
						b.Fatalf("validate of %d %s did not refuse them with %q: %v\n%s", n, tc.name, want, err, out)
					}
				}
			})
		}
	}
}
