// Package acctest is the acceptance-test harness: provider factories, and a
// target that is either a fresh in-process emulator (the default) or a real
// tenant (when TENANT_DOMAIN and credentials are set).
package acctest

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/provider"
)

// Prefix starts the name of every object a test creates, so a sweeper can
// find leftovers on a real tenant.
const Prefix = "tf-acc-"

// ProviderFactories serve the provider in-process to the terraform CLI.
var ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"tenant": func() (tfprotov6.ProviderServer, error) { return provider.NewServer("acctest")(), nil },
}

// RandomName is a unique, prefixed name.
func RandomName() string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 10)
	for i := range b {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(letters))))
		b[i] = letters[n.Int64()]
	}
	return Prefix + string(b)
}

// Target is where a test's objects live.
type Target struct {
	Domain       string
	ClientID     string
	ClientSecret string
	// Emulator is nil against a real tenant.
	Emulator *emulator.Server
	client   *mgmt.Client
}

// Live reports whether acceptance tests run against a real tenant.
func Live() bool { return os.Getenv("TENANT_DOMAIN") != "" }

// NewTarget returns the test's target: its own emulator, or the real tenant.
func NewTarget(t *testing.T) *Target {
	t.Helper()
	return NewTargetWith(t, emulator.Options{})
}

// NewTargetWith starts an emulator with opts (ignored against a real tenant).
func NewTargetWith(t *testing.T, opts emulator.Options) *Target {
	t.Helper()
	var tg Target
	if Live() {
		tg = Target{Domain: os.Getenv("TENANT_DOMAIN"), ClientID: os.Getenv("TENANT_CLIENT_ID"), ClientSecret: os.Getenv("TENANT_CLIENT_SECRET")}
	} else {
		s, err := emulator.Start(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		tg = Target{Domain: s.Domain(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(), Emulator: s}
	}
	c, err := mgmt.New(mgmt.Config{Domain: tg.Domain, ClientID: tg.ClientID, ClientSecret: tg.ClientSecret, APIToken: liveToken(), UserAgent: "terraform-provider-tenant/acctest"})
	if err != nil {
		t.Fatal(err)
	}
	tg.client = c
	return &tg
}

func liveToken() string {
	if Live() && os.Getenv("TENANT_CLIENT_ID") == "" {
		return os.Getenv("TENANT_API_TOKEN")
	}
	return ""
}

// RequireEmulator skips a test that needs emulator controls (faults, caps,
// request counters) when it runs against a real tenant.
func (tg *Target) RequireEmulator(t *testing.T) *emulator.Server {
	t.Helper()
	if tg.Emulator == nil {
		t.Skip("needs the emulator's controls; not run against a real tenant")
	}
	return tg.Emulator
}

// ProviderBlock is the provider configuration for this target.
func (tg *Target) ProviderBlock() string {
	if tok := liveToken(); tok != "" {
		return fmt.Sprintf("provider \"tenant\" {\n  domain    = %q\n  api_token = %q\n}\n", tg.Domain, tok)
	}
	return ProviderHCL(tg.Domain, tg.ClientID, tg.ClientSecret)
}

// ProviderHCL is a provider block with client credentials.
func ProviderHCL(domain, clientID, clientSecret string) string {
	return fmt.Sprintf("provider \"tenant\" {\n  domain        = %q\n  client_id     = %q\n  client_secret = %q\n}\n", domain, clientID, clientSecret)
}

// Config prepends the provider block to a test configuration.
func (tg *Target) Config(hcl string) string { return tg.ProviderBlock() + hcl }

// Client is an API client for changes made outside Terraform.
func (tg *Target) Client() *mgmt.Client { return tg.client }

// Requests is the emulator's request count so far (0 against a real tenant).
func (tg *Target) Requests() int64 {
	if tg.Emulator == nil {
		return 0
	}
	return tg.Emulator.Stats().Total
}

// CheckGone verifies through the API that no resource of typeName in the
// state still exists. get reads one object by id.
func (tg *Target) CheckGone(typeName string, get func(ctx context.Context, c *mgmt.Client, id string) error) func(*terraform.State) error {
	return func(s *terraform.State) error {
		for _, rs := range s.RootModule().Resources {
			if rs.Type != typeName {
				continue
			}
			err := get(context.Background(), tg.client, rs.Primary.ID)
			if err == nil {
				return fmt.Errorf("%s %s still exists after destroy", typeName, rs.Primary.ID)
			}
			if !mgmt.IsNotFound(err) {
				return fmt.Errorf("checking %s %s: %w", typeName, rs.Primary.ID, err)
			}
		}
		return nil
	}
}

// Action creates an action for trigger and deletes it when the test ends.
// A deployed one is waited for: the tenant builds and deploys it
// asynchronously (reference §2), and a profile refuses it until then.
func (tg *Target) Action(t *testing.T, trigger string, deployed bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, err := tg.client.CreateAction(ctx, mgmt.ActionCreate{
		Name:              RandomName(),
		SupportedTriggers: []mgmt.ActionTrigger{{ID: trigger, Version: "v1"}},
		Code:              "exports.onExecuteCustomTokenExchange = async (event, api) => {};",
		Deploy:            deployed,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tg.client.DeleteAction(context.Background(), a.ID, true) })
	ready := mgmt.IsBuilt
	if deployed {
		ready = mgmt.IsDeployed
	}
	if _, err := tg.client.WaitForAction(ctx, a.ID, ready); err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// Profile creates a custom_authentication token exchange profile for the
// action, deleted when the test ends if it is still there.
func (tg *Target) Profile(t *testing.T, name, subjectTokenType, actionID string) *mgmt.TokenExchangeProfile {
	t.Helper()
	p, err := tg.client.CreateTokenExchangeProfile(context.Background(), mgmt.TokenExchangeProfileCreate{
		Name: name, SubjectTokenType: subjectTokenType, ActionID: actionID, Type: "custom_authentication",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tg.client.DeleteTokenExchangeProfile(context.Background(), p.ID) })
	return p
}

// Role creates a role that is deleted when the test ends.
func (tg *Target) Role(t *testing.T) *mgmt.Role {
	t.Helper()
	r, err := tg.client.CreateRole(context.Background(), mgmt.Role{Name: RandomName(), Description: "acceptance test role"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tg.client.DeleteRole(context.Background(), r.ID) })
	return r
}

// ExpectError compiles pattern so that each space matches any run of
// whitespace: terraform wraps long diagnostic lines wherever it likes.
func ExpectError(pattern string) *regexp.Regexp {
	return regexp.MustCompile("(?s)" + strings.ReplaceAll(pattern, " ", `\s+`))
}

// PlanError is a configuration that must fail at plan time with Want (a
// pattern for ExpectError).
type PlanError struct {
	Config string
	Want   string
}

// ExpectPlanErrors plans each configuration (after the provider block),
// expects its error, and fails the test if any request reached the emulator:
// the schema must refuse bad input before anything is sent.
func (tg *Target) ExpectPlanErrors(t *testing.T, cases []PlanError) {
	t.Helper()
	emu := tg.RequireEmulator(t)
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: tg.Config("\n" + c.Config + "\n"), PlanOnly: true, ExpectError: ExpectError(c.Want)})
	}
	var before int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: ProviderFactories,
		PreCheck:                 func() { before = emu.Stats().Total },
		Steps:                    steps,
	})
	if got := emu.Stats().Total - before; got != 0 {
		t.Fatalf("%d requests reached the API for input the schema refuses", got)
	}
}
