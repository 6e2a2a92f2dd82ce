package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestTestingGuide follows docs/guides/testing.md as a user does, from its
// text: the configuration and its tests in a folder, the provider
// installed as the README says, `terraform test` against the tenant in
// the environment (an emulator) beside a deployed copy of the
// configuration, the guide's least-privilege client, the per-run prefix of
// a development tenant, the exchange's tests, and the CI block with the
// emulator's release archive. Besides what the guide runs, it checks what
// the guide claims:
//
//   - the tests pass beside the deployed copy and leave it as it was, and
//     leave nothing of their own;
//   - a run's prefix names what it makes: a run that cannot finish (its
//     client may not delete) leaves objects under its own prefix, and a
//     concurrent run with another prefix passes beside them;
//   - the exchange's tests fail when the action takes a forged token.
func TestTestingGuide(t *testing.T) {
	t.Parallel() // a folder, a home and an emulator of its own
	requireAcc(t)
	if !acctest.OpenTofu(t) { // tofu test has it too
		acctest.RequireTerraform(t, "1.6.0", "terraform test")
	}
	emu, err := emulator.Start(emulator.Options{Log: &testLog{t}})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}

	r := newReader(t)
	// The provider's credentials in the environment: the tenant's global
	// client; the hooks below give the guide's other clients where it
	// says to use them.
	global := []string{"TENANT_DOMAIN=" + emu.Domain(), "TENANT_CLIENT_ID=" + emu.ClientID(), "TENANT_CLIENT_SECRET=" + emu.ClientSecret()}
	r.env = append(r.env, global...)
	r.step("install the provider as the README's Install section says", `terraform-provider-tenant#install`, (*reader).installAsReadme)
	r.step("download the emulator's release archive", "[Dd]ownload `tenant-emulator_", (*reader).downloadEmulator)
	r.rewrite("127.0.0.1:8787", "127.0.0.1:"+freePort(t))
	r.rewrite("linux_amd64", platform())

	// The deployed copy, and the tenant the tests must leave as it is.
	var deployed *acctest.CLI
	var before emulator.State
	r.hooks = append(r.hooks, &hook{
		name:  "the first run of the tenant's tests",
		match: runs("terraform test -filter=tests/tenant.tftest.hcl", "tenant-emulator", "GITHUB_RUN_ID"),
		before: func(r *reader, b *guideBlock) {
			deployed = acctest.NewCLI(t, map[string]string{"main.tf": r.read("main.tf")})
			deployed.Env = append(deployed.Env, global...)
			if out, err := deployed.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
				t.Fatalf("apply of the deployed copy: %v\n%s", err, out)
			}
			before = emu.State()
		},
		after: func(r *reader, b *guideBlock) { testsPassed(t, b, r.lastOut) },
	})

	// The guide's clients, in the tenant the tests run against.
	var leastPrivilege []emulator.Client
	clientsAdded := 0 // each with its grant for the Management API
	r.hooks = append(r.hooks, &hook{
		name: "the clients file",
		match: func(b *guideBlock) bool {
			return b.Role == roleFile && b.Lang == "json" && strings.Contains(b.Text, "client_secret")
		},
		after: func(r *reader, b *guideBlock) {
			var clients []struct {
				ID     string   `json:"client_id"`
				Secret string   `json:"client_secret"`
				Scopes []string `json:"scopes"`
				Global bool     `json:"global"`
			}
			if err := json.Unmarshal([]byte(r.read(b.Path)), &clients); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			for _, cl := range clients {
				c := emulator.Client{ID: cl.ID, Secret: cl.Secret, Scopes: cl.Scopes, Global: cl.Global}
				emu.AddClient(c)
				clientsAdded++
				leastPrivilege = append(leastPrivilege, c)
			}
		},
	})

	// A development tenant's run, with the least-privilege client and the
	// per-run prefix: one run that cannot finish leaves its objects under
	// its prefix, and another run passes beside them.
	r.hookOn("GITHUB_RUN_ID", roleRun, hook{
		run: func(r *reader, b *guideBlock, text string) {
			if len(leastPrivilege) == 0 {
				t.Fatalf("%s: the guide gave no least-privilege client before it", b)
			}
			lp := leastPrivilege[0]
			noDelete := emulator.Client{ID: lp.ID + "-no-delete", Secret: lp.Secret + "-no-delete"}
			for _, s := range lp.Scopes {
				if !strings.HasPrefix(s, "delete:") {
					noDelete.Scopes = append(noDelete.Scopes, s)
				}
			}
			emu.AddClient(noDelete)
			clientsAdded++
			start := emu.State()
			// Terraform fails such a run; OpenTofu reports the tests passed
			// and the objects it could not destroy. What the run left is the
			// tenant's.
			out, _ := r.runOnce(text, "GITHUB_RUN_ID=1001", "TENANT_CLIENT_ID="+noDelete.ID, "TENANT_CLIENT_SECRET="+noDelete.Secret)
			left := newObjects(t, start, emu.State())
			if len(left) == 0 {
				t.Fatalf("%s: the run that could not destroy left nothing:\n%s", b, out)
			}
			for _, o := range left {
				if !strings.Contains(o.name, "ci-1001-") {
					t.Fatalf("%s: the run with GITHUB_RUN_ID=1001 made %s %q, not under its prefix ci-1001-: "+
						"runs of different branches would collide\n%s", b, o.kind, o.name, out)
				}
			}
			out, err := r.runOnce(text, "GITHUB_RUN_ID=1002", "TENANT_CLIENT_ID="+lp.ID, "TENANT_CLIENT_SECRET="+lp.Secret)
			if err != nil {
				t.Fatalf("%s: a run beside another run's objects failed: %v\n%s", b, err, out)
			}
			testsPassed(t, b, out)
			for _, o := range left {
				if err := o.delete(c); err != nil {
					t.Fatal(err)
				}
			}
		},
	})

	// The exchange's tests, then the same tests against an action that no
	// longer rejects a forged subject token (it reads the token's claims
	// without checking the signature): the forged token's run fails.
	r.hooks = append(r.hooks, &hook{
		name:  "the exchange's tests",
		match: runs("terraform test -filter=tests/exchange.tftest.hcl", "tenant-emulator"),
		after: func(r *reader, b *guideBlock) {
			testsPassed(t, b, r.lastOut)
			main := r.read("token-exchange/main.tf")
			lax := acceptAnyToken.ReplaceAllLiteralString(main, `payload = require("jose").decodeJwt(event.transaction.subject_token);`)
			if strings.Contains(lax, "rejectInvalidSubjectToken") {
				t.Fatal("examples/token-exchange's action still rejects subject tokens after the rewrite; update acceptAnyToken")
			}
			r.write("token-exchange/main.tf", lax)
			out, err := r.runOnce(b.Text)
			words := strings.Join(strings.Fields(out), " ") // diagnostics wrap where they like
			if err == nil || !strings.Contains(words, `run "a_forged_token_is_refused"... fail`) ||
				!strings.Contains(words, "The exchange was not refused with expected_error.") {
				t.Fatalf("the exchange's tests of an action that takes a forged token did not fail its forged token's run: %v\n%s", err, out)
			}
			r.write("token-exchange/main.tf", main)
		},
	})

	// CI: every test command of the block passes.
	r.hookOn("./tenant-emulator", roleRun, hook{
		after: func(r *reader, b *guideBlock) {
			if n, passed := strings.Count(b.Text, "terraform test"), len(testsPassedLine.FindAllString(r.lastOut, -1)); passed != n {
				t.Fatalf("%s: %d of its %d terraform test commands passed:\n%s", b, passed, n, r.lastOut)
			}
		},
	})

	r.walk(readGuide(t, "testing"))

	after := emu.State()
	// The clients the test added, each with its grant, are not the tests'.
	after.Clients, after.ClientGrants = after.Clients[:len(after.Clients)-clientsAdded], after.ClientGrants[:len(after.ClientGrants)-clientsAdded]
	if left := newObjects(t, before, after); len(left) != 0 {
		t.Fatalf("the tests left %v", left)
	}
	if out, err := deployed.Run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Fatalf("the tests changed the deployed copy: %v\n%s", err, out)
	}
}

// acceptAnyToken is examples/token-exchange's refusal of a subject token
// whose signature does not verify.
var acceptAnyToken = regexp.MustCompile(`api\.access\.rejectInvalidSubjectToken\([^)]*\);\s*return;`)

var testsPassedLine = regexp.MustCompile(`Success! [1-9][0-9]* passed, 0 failed`)

// testsPassed checks that a block's terraform test passed.
func testsPassed(t *testing.T, b *guideBlock, out string) {
	t.Helper()
	if !testsPassedLine.MatchString(out) {
		t.Fatalf("%s: terraform test did not pass:\n%s", b, out)
	}
}

// runs matches a commands block that holds marker and none of not.
func runs(marker string, not ...string) func(*guideBlock) bool {
	return func(b *guideBlock) bool {
		if b.Role != roleRun || !strings.Contains(b.Text, marker) {
			return false
		}
		for _, n := range not {
			if strings.Contains(b.Text, n) {
				return false
			}
		}
		return true
	}
}

// tenantObject is an API or a role of the emulator's state.
type tenantObject struct {
	kind, id, name string
}

func (o tenantObject) delete(c *mgmt.Client) error {
	if o.kind == "API" {
		return c.DeleteResourceServer(context.Background(), o.id)
	}
	return c.DeleteRole(context.Background(), o.id)
}

func (o tenantObject) String() string { return o.kind + " " + o.name }

// newObjects are the APIs and roles of after that before has not, and
// every object of another kind whose count changed.
func newObjects(t *testing.T, before, after emulator.State) []tenantObject {
	t.Helper()
	ids := func(raw []json.RawMessage, name string) map[string]string {
		out := map[string]string{}
		for _, m := range raw {
			var o map[string]any
			if err := json.Unmarshal(m, &o); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprint(o["id"])] = fmt.Sprint(o[name])
		}
		return out
	}
	var out []tenantObject
	for _, kind := range []struct {
		kind          string
		before, after []json.RawMessage
		name          string
	}{{"API", before.ResourceServers, after.ResourceServers, "identifier"}, {"role", before.Roles, after.Roles, "name"}} {
		had := ids(kind.before, kind.name)
		for id, name := range ids(kind.after, kind.name) {
			if _, ok := had[id]; !ok {
				out = append(out, tenantObject{kind.kind, id, name})
			}
		}
	}
	for _, n := range []struct {
		kind          string
		before, after int
	}{{"actions", len(before.Actions), len(after.Actions)}, {"profiles", len(before.TokenExchangeProfiles), len(after.TokenExchangeProfiles)},
		{"clients", len(before.Clients), len(after.Clients)}, {"client grants", len(before.ClientGrants), len(after.ClientGrants)}} {
		if n.before != n.after {
			out = append(out, tenantObject{kind: n.kind, name: fmt.Sprintf("%d before, %d after", n.before, n.after)})
		}
	}
	return out
}

// freePort is a loopback port free now, for a guide's fixed one. It is
// chosen below the kernel's range of ephemeral ports (the local ports of
// the connections every test opens, and of listeners on port 0), so that
// none of those takes it between its release here and the guide's
// emulator binding it.
// A port is handed out once in a test binary.
func freePort(t *testing.T) string {
	t.Helper()
	low, high := 20000, ephemeralLow()
	handedOut.Lock()
	defer handedOut.Unlock()
	for range 100 {
		port := low + rand.IntN(high-low)
		if handedOut.ports[port] {
			continue
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		_ = l.Close()
		handedOut.ports[port] = true
		return fmt.Sprint(port)
	}
	t.Fatalf("no free loopback port between %d and %d", low, high)
	return ""
}

// handedOut are the ports freePort has returned.
var handedOut = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// ephemeralLow is the lowest ephemeral port (Linux's range, 32768 where it
// cannot be read).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	var low, high int
	if _, err := fmt.Sscan(string(b), &low, &high); err != nil || low <= 21000 {
		return 32768
	}
	return low
}
