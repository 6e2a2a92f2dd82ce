// Command bench measures what the provider costs the tenant: it starts the
// emulator with a rate limit, applies, re-plans and destroys generated
// configurations through the terraform CLI and the locally built provider,
// and writes BENCHMARKS.md and bench.png.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	Scenario string
	N        int
	Phase    string
	Requests int64 // API requests, the token requests excluded
	Tokens   int64
	TooMany  int64
	Wall     time.Duration
	PeakRSS  int64 // bytes, the provider process's
	// TerraformRSS is the terraform process's peak, in bytes.
	TerraformRSS int64
	// ProviderCPU and TerraformCPU are the CPU time (user and system) the
	// provider processes and terraform spent in the phase.
	ProviderCPU, TerraformCPU time.Duration
	// Routes counts the API requests by route, the token's apart.
	Routes map[string]int64
	Failed bool
}

// limitRatio is the wall time over the time the tenant's limit needs for
// the requests (all of them, the token's included, at rps).
func (r result) limitRatio() float64 {
	return r.Wall.Seconds() / (float64(r.Requests+r.Tokens) / rps)
}

func (r result) share429() float64 {
	return float64(r.TooMany) / float64(max(1, r.Requests+r.Tokens))
}

func main() {
	out := flag.String("out", ".", "folder for BENCHMARKS.md and bench.png")
	sizes := flag.String("n", "10,100,500", "object counts of the mixed runs")
	plans := flag.Int("plans", 5, "no-change plans of the 1,000-object run")
	blocks := flag.Int("blocks", 500, "APIs, and token exchange profiles, of the separate-blocks run (each one resource block)")
	only := flag.String("only", "", "run only these parts, comma-separated (collections, memory, blocks, clients), and print them without writing BENCHMARKS.md")
	flag.Parse()
	if *only != "" {
		// Each part prints its table and, where it has them, its targets.
		parts := map[string]struct {
			run              func() ([]result, error)
			section, targets func(*strings.Builder, []result)
		}{
			"collections": {func() ([]result, error) { return runLargeCollections(3) }, collectionsSection, nil},
			"memory":      {func() ([]result, error) { return runMemory(3) }, memorySection, nil},
			"blocks":      {func() ([]result, error) { return runBlocks(*blocks) }, blocksSection, blocksTargets},
			"clients":     {func() ([]result, error) { return runClients(3) }, clientsSection, clientsTargets},
		}
		for _, name := range strings.Split(*only, ",") {
			p, ok := parts[name]
			if !ok {
				fail(fmt.Errorf("unknown part %q", name))
			}
			rs, err := p.run()
			if err != nil {
				fail(err)
			}
			var b strings.Builder
			p.section(&b, rs)
			if p.targets != nil {
				b.WriteString("\n| target | measured | met |\n| --- | --- | --- |\n")
				p.targets(&b, rs)
			}
			fmt.Print(b.String())
		}
		return
	}
	var mixedRuns []result
	for _, s := range strings.Split(*sizes, ",") {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n < 5 {
			fail(fmt.Errorf("bad -n value %q", s))
		}
		rs, err := runMixed(n)
		if err != nil {
			fail(err)
		}
		mixedRuns = append(mixedRuns, rs...)
	}
	var r runs
	var err error
	if r.scale, err = runScale(*plans); err != nil {
		fail(err)
	}
	if r.blocks, err = runBlocks(*blocks); err != nil {
		fail(err)
	}
	if r.shared, err = runTwoProcesses(); err != nil {
		fail(err)
	}
	if r.tenants, err = runTenants(); err != nil {
		fail(err)
	}
	if r.collections, err = runLargeCollections(3); err != nil {
		fail(err)
	}
	if r.memory, err = runMemory(3); err != nil {
		fail(err)
	}
	if r.clients, err = runClients(3); err != nil {
		fail(err)
	}
	r.mixed = mixedRuns
	if err := report(*out, r); err != nil {
		fail(err)
	}
}

// runs holds every part's results.
type runs struct {
	mixed, scale, blocks, shared, tenants, collections, memory, clients []result
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

// start starts an emulator with a demo action (the profiles' action), the
// rate limit off while a scenario is set up.
func start(o emulator.Options) (*emulator.Server, *mgmt.Client, error) {
	o.Demo = true
	emu, err := emulator.Start(o)
	if err != nil {
		return nil, nil, err
	}
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	return emu, c, err
}

// workdir is a terraform working folder with cfg as main.tf, initialised.
func workdir(cfg string) (*acctest.CLI, func(), error) {
	dir, err := os.MkdirTemp("", "tenant-bench-")
	if err != nil {
		return nil, nil, err
	}
	cli, err := acctest.NewCLIIn(dir, map[string]string{"main.tf": cfg})
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return cli, func() { os.RemoveAll(dir) }, nil
}

// apisAndProfiles is n APIs with two scopes and n token exchange profiles.
func apisAndProfiles(emu *emulator.Server, n int, prefix string) string {
	return acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + fmt.Sprintf(`
resource "tenant_resource_server" "api" {
  count      = %[1]d
  identifier = "https://api.example.com/%[2]s/${count.index}"
  name       = "%[2]s ${count.index}"
  scopes     = { "read:x" = "Read", "write:x" = "Write" }
}

resource "tenant_token_exchange_profile" "p" {
  count              = %[1]d
  name               = "%[2]s profile ${count.index}"
  subject_token_type = "urn:acme:%[2]s:${count.index}"
  action_id          = %[3]q
}
`, n, prefix, emu.Demo().ActionID)
}

// mixed is 2N/5 APIs with scopes, 2N/5 token exchange profiles and the
// permissions of N/5 roles.
func mixed(emu *emulator.Server, roles []string) string {
	n := len(roles) * 5
	return apisAndProfiles(emu, 2*n/5, "mixed") + fmt.Sprintf(`
locals {
  roles = [%s]
}

resource "tenant_role_permissions" "r" {
  count   = length(local.roles)
  role_id = local.roles[count.index]
  permissions = {
    (tenant_resource_server.api[count.index].identifier) = ["read:x", "write:x"]
  }
}
`, quoteAll(roles))
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

var (
	applyArgs   = []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	planArgs    = []string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}
	destroyArgs = []string{"destroy", "-auto-approve", "-input=false", "-no-color"}
)

// runMixed applies, re-plans and destroys N mixed objects at the limit.
func runMixed(n int) ([]result, error) {
	emu, c, err := start(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer emu.Close()
	var roles []string
	for i := range n / 5 {
		r, err := c.CreateRole(context.Background(), mgmt.Role{Name: fmt.Sprintf("bench-role-%d", i)})
		if err != nil {
			return nil, err
		}
		roles = append(roles, r.ID)
	}
	cli, done, err := workdir(mixed(emu, roles))
	if err != nil {
		return nil, err
	}
	defer done()
	emu.SetRateLimit(rps, burst)
	var out []result
	for _, ph := range []struct {
		name string
		args []string
	}{{"apply", applyArgs}, {"plan", planArgs}, {"destroy", destroyArgs}} {
		r := measure(emu, "mixed", n, ph.name, func() (string, error) { return cli.Run(ph.args...) })
		out = append(out, r)
	}
	return out, nil
}

// runScale applies 500 APIs and 500 profiles at the limit, plans with no
// change plans times, and destroys them.
func runScale(plans int) ([]result, error) {
	emu, _, err := start(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer emu.Close()
	cli, done, err := workdir(apisAndProfiles(emu, 500, "scale"))
	if err != nil {
		return nil, err
	}
	defer done()
	emu.SetRateLimit(rps, burst)
	out := []result{measure(emu, "1000", 1000, "apply", func() (string, error) { return cli.Run(applyArgs...) })}
	for i := range plans {
		out = append(out, measure(emu, "1000", 1000, fmt.Sprintf("plan %d", i+1), func() (string, error) { return cli.Run(planArgs...) }))
	}
	out = append(out, measure(emu, "1000", 1000, "destroy", func() (string, error) { return cli.Run(destroyArgs...) }))
	return out, nil
}

// runTwoProcesses applies, then destroys, two configurations of 250 APIs
// and 250 profiles each at once, as two terraform processes sharing one
// tenant's limit.
func runTwoProcesses() ([]result, error) {
	emu, _, err := start(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer emu.Close()
	var clis []*acctest.CLI
	for _, prefix := range []string{"left", "right"} {
		cli, done, err := workdir(apisAndProfiles(emu, 250, prefix))
		if err != nil {
			return nil, err
		}
		defer done()
		clis = append(clis, cli)
	}
	emu.SetRateLimit(rps, burst)
	both := func(args []string) func() (string, error) {
		return func() (string, error) {
			var wg sync.WaitGroup
			outs, errs := make([]string, 2), make([]error, 2)
			for i, cli := range clis {
				wg.Add(1)
				go func() {
					defer wg.Done()
					outs[i], errs[i] = cli.Run(args...)
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					return outs[i], err
				}
			}
			return "", nil
		}
	}
	return []result{
		measure(emu, "2×500", 1000, "apply", both(applyArgs)),
		measure(emu, "2×500", 1000, "destroy", both(destroyArgs)),
	}, nil
}

// runTenants applies and destroys 50 APIs and 50 profiles against tenants
// whose limits behave differently, at the same 20 requests/s.
func runTenants() ([]result, error) {
	var out []result
	for _, t := range []struct {
		name string
		opts emulator.Options
	}{
		{"fixed window of 20 per second", emulator.Options{RateLimitWindow: time.Second}},
		{"clock an hour ahead", emulator.Options{ClockSkew: time.Hour}},
		{"clock an hour behind", emulator.Options{ClockSkew: -time.Hour}},
		{"no X-RateLimit-Limit", emulator.Options{OmitRateLimitHeaders: []string{"X-RateLimit-Limit"}}},
		{"no X-RateLimit-Reset", emulator.Options{OmitRateLimitHeaders: []string{"X-RateLimit-Reset"}}},
		{"no rate-limit headers", emulator.Options{OmitRateLimitHeaders: []string{"all"}}},
	} {
		opts := t.opts
		opts.RateLimitRPS, opts.RateLimitBurst = rps, burst
		emu, _, err := start(opts)
		if err != nil {
			return nil, err
		}
		cli, done, err := workdir(apisAndProfiles(emu, 50, "tenant"))
		if err != nil {
			emu.Close()
			return nil, err
		}
		out = append(out,
			measure(emu, t.name, 100, "apply", func() (string, error) { return cli.Run(applyArgs...) }),
			measure(emu, t.name, 100, "destroy", func() (string, error) { return cli.Run(destroyArgs...) }))
		done()
		emu.Close()
	}
	return out, nil
}

// measure runs one phase, counting the emulator's requests and sampling
// the peak RSS of the provider processes and of terraform.
func measure(emu *emulator.Server, scenario string, n int, phase string, run func() (string, error)) result {
	return measureProvider(emu, "terraform-provider-tenant", scenario, n, phase, run)
}

// measureProvider is measure for the provider whose binary's name starts
// with provider.
func measureProvider(emu *emulator.Server, provider, scenario string, n int, phase string, run func() (string, error)) result {
	emu.ResetStats()
	watched := map[string]*usage{provider: {}, "terraform": {}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		watchProcesses(stop, watched)
	}()
	begin := time.Now()
	out, err := run()
	wall := time.Since(begin)
	close(stop)
	wg.Wait()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s %s failed: %v\n%s\n", scenario, phase, err, tail(out))
	}
	st := emu.Stats()
	tokens := st.ByRoute["POST /oauth/token"]
	delete(st.ByRoute, "POST /oauth/token")
	prov, tf := watched[provider], watched["terraform"]
	r := result{Scenario: scenario, N: n, Phase: phase, Requests: st.Total - tokens, Tokens: tokens, TooMany: st.ByStatus["429"],
		Wall: wall, PeakRSS: prov.peak, TerraformRSS: tf.peak, ProviderCPU: prov.cpu(), TerraformCPU: tf.cpu(),
		Routes: st.ByRoute, Failed: err != nil}
	fmt.Printf("%-30s %-12s %5d requests (+%d token) %4d x429 %7.2fs (%.3f × the limit) peak RSS %5.1f MiB (terraform %5.1f) "+
		"CPU %6.2fs (terraform %6.2fs) failed=%v\n",
		scenario, phase, r.Requests, r.Tokens, r.TooMany, r.Wall.Seconds(), r.limitRatio(), float64(r.PeakRSS)/(1<<20),
		float64(r.TerraformRSS)/(1<<20), r.ProviderCPU.Seconds(), r.TerraformCPU.Seconds(), r.Failed)
	return r
}

func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-30):], "\n")
}

// usage is what watchProcesses saw of the processes of one name: the
// largest peak resident set, and the CPU time of each process by pid.
type usage struct {
	peak  int64
	ticks map[int]int64
}

// cpu is the CPU time of every process seen, each at its last sample.
func (u *usage) cpu() time.Duration {
	var sum int64
	for _, t := range u.ticks {
		sum += t
	}
	return time.Duration(sum) * time.Second / clockTicks
}

// clockTicks is the unit of the CPU times in /proc/<pid>/stat (USER_HZ,
// 100 on Linux).
const clockTicks = 100

// watchProcesses samples, every 20 ms until stop closes, every running
// process whose binary's name is one of the keys of watched or starts with
// it: its VmHWM (peak resident set), keeping the largest, and its CPU time
// (utime + stime). A process's CPU in its last 20 ms before it exits is not
// seen.
func watchProcesses(stop chan struct{}, watched map[string]*usage) {
	for _, u := range watched {
		u.ticks = map[int]int64{}
	}
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		procs, _ := filepath.Glob("/proc/[0-9]*/exe")
		for _, exe := range procs {
			target, err := os.Readlink(exe)
			if err != nil {
				continue
			}
			var u *usage
			for prefix, w := range watched {
				if base := filepath.Base(target); base == prefix || strings.HasPrefix(base, prefix+"_") || prefix != "terraform" && strings.HasPrefix(base, prefix) {
					u = w
				}
			}
			if u == nil {
				continue
			}
			dir := filepath.Dir(exe)
			var pid int
			if _, err := fmt.Sscan(filepath.Base(dir), &pid); err != nil {
				continue
			}
			if stat, err := os.ReadFile(filepath.Join(dir, "stat")); err == nil {
				// The fields after the command's closing parenthesis: state
				// is the first, utime the 12th, stime the 13th.
				fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
				var utime, stime int64
				if len(fields) > 12 {
					_, _ = fmt.Sscan(fields[11], &utime)
					_, _ = fmt.Sscan(fields[12], &stime)
					u.ticks[pid] = max(u.ticks[pid], utime+stime)
				}
			}
			status, err := os.ReadFile(filepath.Join(dir, "status"))
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(status), "\n") {
				var kb int64
				if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil && kb*1024 > u.peak {
					u.peak = kb * 1024
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
