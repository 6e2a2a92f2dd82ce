// Command bench measures what the provider costs the tenant: it starts the
// emulator with a rate limit, applies, re-plans and destroys generated
// configurations of N objects through the terraform CLI and the locally
// built provider, and writes BENCHMARKS.md and bench.png.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

const (
	rps   = 20
	burst = 20
)

// result is one phase of one run.
type result struct {
	N        int
	Phase    string
	Requests int64 // API requests, the token request excluded
	Tokens   int64
	TooMany  int64
	Wall     time.Duration
	PeakRSS  int64 // bytes
	Failed   bool
}

func main() {
	out := flag.String("out", ".", "folder for BENCHMARKS.md and bench.png")
	sizes := flag.String("n", "10,100,500", "object counts")
	flag.Parse()
	var results []result
	for _, s := range strings.Split(*sizes, ",") {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n < 5 {
			fail(fmt.Errorf("bad -n value %q", s))
		}
		rs, err := runMixed(n)
		if err != nil {
			fail(err)
		}
		results = append(results, rs...)
	}
	plan, err := runPlan1000()
	if err != nil {
		fail(err)
	}
	if err := report(*out, results, plan); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

func start(rateLimited bool) (*emulator.Server, *mgmt.Client, error) {
	o := emulator.Options{Demo: true}
	if rateLimited {
		o.RateLimitRPS, o.RateLimitBurst = rps, burst
	}
	emu, err := emulator.Start(o)
	if err != nil {
		return nil, nil, err
	}
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	return emu, c, err
}

// mixed is 2N/5 APIs with scopes, 2N/5 token exchange profiles and the
// permissions of N/5 roles.
func mixed(emu *emulator.Server, roles []string) string {
	n := len(roles) * 5
	return acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + fmt.Sprintf(`
locals {
  roles = [%s]
}

resource "tenant_resource_server" "api" {
  count      = %d
  identifier = "https://api.example.com/bench/${count.index}"
  name       = "bench ${count.index}"
  scopes     = [{ value = "read:x", description = "Read" }, { value = "write:x", description = "Write" }]
}

resource "tenant_token_exchange_profile" "p" {
  count              = %d
  name               = "bench profile ${count.index}"
  subject_token_type = "urn:acme:bench:${count.index}"
  action_id          = %q
}

resource "tenant_role_permissions" "r" {
  count   = length(local.roles)
  role_id = local.roles[count.index]
  permissions = [
    { resource_server_identifier = tenant_resource_server.api[count.index].identifier, permission_name = "read:x" },
    { resource_server_identifier = tenant_resource_server.api[count.index].identifier, permission_name = "write:x" },
  ]
}
`, quoteAll(roles), 2*n/5, 2*n/5, emu.Demo().ActionID)
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func runMixed(n int) ([]result, error) {
	emu, c, err := start(true)
	if err != nil {
		return nil, err
	}
	defer emu.Close()
	emu.SetRateLimit(0, 0) // set-up is not measured
	var roles []string
	for i := range n / 5 {
		r, err := c.CreateRole(context.Background(), mgmt.Role{Name: fmt.Sprintf("bench-role-%d", i)})
		if err != nil {
			return nil, err
		}
		roles = append(roles, r.ID)
	}
	emu.SetRateLimit(rps, burst)
	dir, err := os.MkdirTemp("", "tenant-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cli, err := acctest.NewCLIIn(dir, map[string]string{"main.tf": mixed(emu, roles)})
	if err != nil {
		return nil, err
	}
	var out []result
	for _, ph := range []struct {
		name string
		args []string
	}{
		{"apply", []string{"apply", "-auto-approve", "-input=false", "-no-color"}},
		{"plan", []string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}},
		{"destroy", []string{"destroy", "-auto-approve", "-input=false", "-no-color"}},
	} {
		r := measure(emu, cli, n, ph.name, ph.args...)
		fmt.Printf("N=%-4d %-8s %5d requests (+%d token) %4d x429 %7.1fs peak RSS %5.1f MiB failed=%v\n",
			n, ph.name, r.Requests, r.Tokens, r.TooMany, r.Wall.Seconds(), float64(r.PeakRSS)/(1<<20), r.Failed)
		out = append(out, r)
	}
	return out, nil
}

// runPlan1000 measures a no-change plan over 500 APIs and 500 profiles.
func runPlan1000() (result, error) {
	emu, _, err := start(false)
	if err != nil {
		return result{}, err
	}
	defer emu.Close()
	dir, err := os.MkdirTemp("", "tenant-bench-")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	cfg := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + fmt.Sprintf(`
resource "tenant_resource_server" "api" {
  count      = 500
  identifier = "https://api.example.com/plan/${count.index}"
  scopes     = [{ value = "read:x" }]
}

resource "tenant_token_exchange_profile" "p" {
  count              = 500
  name               = "plan profile ${count.index}"
  subject_token_type = "urn:acme:plan:${count.index}"
  action_id          = %q
}
`, emu.Demo().ActionID)
	cli, err := acctest.NewCLIIn(dir, map[string]string{"main.tf": cfg})
	if err != nil {
		return result{}, err
	}
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=20"); err != nil {
		return result{}, fmt.Errorf("set-up apply: %v\n%s", err, tail(out))
	}
	emu.SetRateLimit(rps, burst)
	r := measure(emu, cli, 1000, "plan", "plan", "-detailed-exitcode", "-input=false", "-no-color")
	fmt.Printf("500 APIs + 500 profiles, no-change plan: %d requests (+%d token), %.1fs\n", r.Requests, r.Tokens, r.Wall.Seconds())
	emu.SetRateLimit(0, 0)
	if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color", "-parallelism=20"); err != nil {
		return r, fmt.Errorf("destroy: %v\n%s", err, tail(out))
	}
	return r, nil
}

func measure(emu *emulator.Server, cli *acctest.CLI, n int, phase string, args ...string) result {
	emu.ResetStats()
	var peak atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		watchRSS(stop, &peak)
	}()
	begin := time.Now()
	out, err := cli.Run(args...)
	wall := time.Since(begin)
	close(stop)
	wg.Wait()
	if err != nil {
		fmt.Fprintf(os.Stderr, "N=%d %s failed: %v\n%s\n", n, phase, err, tail(out))
	}
	st := emu.Stats()
	tokens := st.ByRoute["POST /oauth/token"]
	return result{N: n, Phase: phase, Requests: st.Total - tokens, Tokens: tokens, TooMany: st.ByStatus["429"], Wall: wall, PeakRSS: peak.Load(), Failed: err != nil}
}

func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-30):], "\n")
}

// watchRSS samples the VmHWM (peak resident set) of every running provider
// process until stop closes, keeping the largest.
func watchRSS(stop chan struct{}, peak *atomic.Int64) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		procs, _ := filepath.Glob("/proc/[0-9]*/exe")
		for _, exe := range procs {
			target, err := os.Readlink(exe)
			if err != nil || !strings.HasPrefix(filepath.Base(target), "terraform-provider-tenant") {
				continue
			}
			status, err := os.ReadFile(filepath.Join(filepath.Dir(exe), "status"))
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(status), "\n") {
				var kb int64
				if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil && kb*1024 > peak.Load() {
					peak.Store(kb * 1024)
				}
			}
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}
