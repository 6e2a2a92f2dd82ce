// Package transitions_test drives seeded random walks through valid
// configurations of each resource with the real terraform CLI against the
// emulator. At every step the apply must succeed, the next plan must be
// empty, and the tenant must equal the configuration (the API's defaults
// for what is unset); at the end, destroy must leave nothing.
//
// TRANSITIONS sets the number of steps per resource (default 12, the budget
// of make test); TRANSITIONS_SEED replays one seed. A failure prints the
// seed and every configuration of the walk as HCL.
package transitions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// config is one valid configuration of a resource and what the tenant must
// hold once it is applied.
type config interface {
	// HCL is the configuration, without the provider block.
	HCL() string
	// Check compares the tenant with the configuration.
	Check(st emulator.State) error
	// Address is the resource's address; ImportIgnore lists the attributes
	// an import cannot read back.
	Address() string
	ImportIgnore() []string
}

// walker makes the configurations of one resource type.
type walker interface {
	// First is the first configuration of a walk.
	First(r *rand.Rand) config
	// Next changes prev: sets, changes or removes arguments, or replaces
	// the object.
	Next(r *rand.Rand, prev config) config
	// Gone checks, after destroy, that nothing of the walk is left.
	Gone(st emulator.State) error
}

// tenantCheck compares the tenant with the configuration just applied. It
// runs as a check of the plan Terraform makes right after the apply,
// without a refresh (a plan writes nothing to the tenant): a step's Check
// would cost a `terraform show` of the state, which this comparison does
// not read.
type tenantCheck func() error

func (f tenantCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f()
}

// Counted transitions, reported at the end of the run.
var applied, imported atomic.Int64

func steps() int {
	if n, err := strconv.Atoi(os.Getenv("TRANSITIONS")); err == nil && n > 0 {
		return n
	}
	return 12
}

func seed() uint64 {
	if s, err := strconv.ParseUint(os.Getenv("TRANSITIONS_SEED"), 10, 64); err == nil {
		return s
	}
	return uint64(time.Now().UnixNano())
}

// walk runs one seeded walk of n steps for the walker newWalker builds
// against a fresh emulator.
func walk(t *testing.T, newWalker func(t *testing.T, target *acctest.Target) walker) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1 (make test does)")
	}
	t.Parallel()
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	w := newWalker(t, target)
	s := seed()
	r := rand.New(rand.NewPCG(s, s^0x5deece66d))
	var configs []config
	c := w.First(r)
	var testSteps []resource.TestStep
	for i := 0; i < steps(); i++ {
		if i > 0 {
			c = w.Next(r, c)
		}
		configs = append(configs, c)
		cc := c
		testSteps = append(testSteps, resource.TestStep{
			Config: target.Config(cc.HCL()),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPreRefresh: []plancheck.PlanCheck{tenantCheck(func() error {
					applied.Add(1)
					return cc.Check(emu.State())
				})},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		})
		if r.IntN(6) == 0 {
			testSteps = append(testSteps, resource.TestStep{
				Config:                  target.Config(cc.HCL()),
				ResourceName:            cc.Address(),
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: cc.ImportIgnore(),
				// Terraform runs no Check on an import step; ImportStateCheck
				// runs once the import is read back.
				ImportStateCheck: func([]*terraform.InstanceState) error {
					imported.Add(1)
					return nil
				},
			})
		}
	}
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, "replay with TRANSITIONS_SEED=%d TRANSITIONS=%d; the walk's configurations:\n", s, steps())
		for i, c := range configs {
			fmt.Fprintf(&b, "# step %d\n%s\n", i+1, c.HCL())
		}
		t.Log(b.String())
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps:                    testSteps,
		CheckDestroy: func(*terraform.State) error {
			return w.Gone(emu.State())
		},
	})
	t.Logf("seed %d: %d configurations applied", s, len(configs))
}

func TestMain(m *testing.M) {
	code := m.Run()
	if applied.Load() > 0 {
		fmt.Printf("transitions: %d configurations applied and checked, %d imports verified\n", applied.Load(), imported.Load())
	}
	os.Exit(code)
}

// decode unmarshals one object of the emulator's state.
func decode(raw json.RawMessage) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(err)
	}
	return m
}

// pick returns one of the values.
func pick[T any](r *rand.Rand, values ...T) T { return values[r.IntN(len(values))] }

// maybe returns true with probability 1/n.
func maybe(r *rand.Rand, n int) bool { return r.IntN(n) == 0 }

// diff lists the keys whose values differ between got and want (JSON-equal).
func diff(what string, got, want map[string]any) error {
	var bad []string
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	for k := range keys {
		g, _ := json.Marshal(got[k])
		w, _ := json.Marshal(want[k])
		if string(g) != string(w) {
			bad = append(bad, fmt.Sprintf("%s: tenant %s, configuration %s", k, g, w))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s differs from the configuration:\n  %s", what, strings.Join(bad, "\n  "))
	}
	return nil
}
