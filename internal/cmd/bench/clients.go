package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// clientsN is how many clients, each with one grant, the side-by-side run
// with the incumbent applies.
var clientsN = flag.Int("clients-n", 500, "clients (each with a grant) of the run beside the incumbent")

// clientsRPS is the emulator's rate limit in the clients run; 0 runs it
// without one, to see the CPU each process spends.
var clientsRPS = flag.Int("clients-rps", rps, "requests per second the emulator allows in the clients run (0: no limit)")

// clientsAudience is the API the bench's grants are for.
const clientsAudience = "https://bench.example.com/orders"

// clientsObjects is n machine-to-machine clients, each granted the bench
// API's read scope, in this provider's or the incumbent's types.
func clientsObjects(n int, incumbent bool) string {
	client, grant := "tenant_client", "tenant_client_grant"
	if incumbent {
		client, grant = "auth0_client", "auth0_client_grant"
	}
	return fmt.Sprintf(`
resource %[1]q "c" {
  count       = %[3]d
  name        = "bench client ${count.index}"
  app_type    = "non_interactive"
  grant_types = ["client_credentials"]
}

resource %[2]q "g" {
  count     = %[3]d
  client_id = %[1]s.c[count.index].client_id
  audience  = %[4]q
  scopes    = ["read:orders"]
}
`, client, grant, n, clientsAudience)
}

// runClients applies n clients and n grants at the limit, plans with no
// change, and destroys them, with this provider and then with the
// incumbent (when TENANT_INCUMBENT_PROVIDER names it), each against a
// fresh emulator over TLS (the incumbent speaks only HTTPS).
func runClients(plans int) ([]result, error) {
	n := *clientsN
	type side struct {
		name, provider string
		incumbent      bool
	}
	sides := []side{{"this provider", "terraform-provider-tenant", false}}
	if err := acctest.Incumbent(); err != nil {
		fmt.Fprintf(os.Stderr, "bench: the incumbent's clients are not measured: %v\n", err)
	} else {
		sides = append(sides, side{"incumbent " + acctest.IncumbentVersion, "terraform-provider-auth0", true})
	}
	var out []result
	for _, s := range sides {
		rs, err := clientsSide(n, plans, s.name, s.provider, s.incumbent)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

func clientsSide(n, plans int, name, provider string, incumbent bool) ([]result, error) {
	emu, _, err := start(emulator.Options{TLS: true})
	if err != nil {
		return nil, err
	}
	defer emu.Close()
	hc, err := acctest.EmulatorHTTPClient(emu)
	if err != nil {
		return nil, err
	}
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret(), HTTPClient: hc})
	if err != nil {
		return nil, err
	}
	scopes := []mgmt.ResourceServerScope{{Value: "read:orders"}, {Value: "write:orders"}}
	if _, err := c.CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: clientsAudience, Scopes: &scopes}); err != nil {
		return nil, err
	}
	cfg := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
	if incumbent {
		block, err := acctest.IncumbentProviderHCL(emu)
		if err != nil {
			return nil, err
		}
		cfg = incumbentVersions + block
	}
	cli, done, err := workdir(cfg + clientsObjects(n, incumbent))
	if err != nil {
		return nil, err
	}
	defer done()
	cli.Env = append(cli.Env, "SSL_CERT_FILE="+emu.CAFile())
	if *clientsRPS > 0 {
		emu.SetRateLimit(float64(*clientsRPS), burst)
	}
	scenario := fmt.Sprintf("%s: %d clients + %d grants", name, n, n)
	phase := func(ph string, args []string) result {
		return measureProvider(emu, provider, scenario, 2*n, ph, func() (string, error) { return cli.Run(args...) })
	}
	out := []result{phase("apply", applyArgs)}
	if out[0].Failed {
		return out, fmt.Errorf("%s: apply failed", scenario)
	}
	time.Sleep(time.Second)
	for i := range plans {
		out = append(out, phase(fmt.Sprintf("no-change plan %d", i+1), planArgs))
	}
	out = append(out, phase("destroy", destroyArgs))
	return out, nil
}

// clientsSection writes the side-by-side table and its targets: every
// phase at or below 0.4 × the incumbent's wall time (no-change plans: the
// median against the median).
func clientsSection(b *strings.Builder, results []result) {
	if len(results) == 0 {
		return
	}
	limit := fmt.Sprintf("at %d requests/s", *clientsRPS)
	if *clientsRPS <= 0 {
		limit = "without a rate limit"
	}
	fmt.Fprintf(b, "\n## Clients and grants beside the incumbent\n\n%d clients (machine to machine) and a grant for each, applied, "+
		"planned with no change and destroyed %s, with this provider and with the incumbent (`auth0_client` and "+
		"`auth0_client_grant`), each against a fresh emulator over TLS. CPU is each process's user and system time in the phase "+
		"(sampled every 20 ms from /proc).\n\n", results[0].N/2, limit)
	b.WriteString("| run | phase | requests | token | 429 | wall (s) | × limit | provider CPU (s) | terraform CPU (s) | peak RSS (MiB) | terraform peak RSS (MiB) | ok |\n" +
		"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, r := range results {
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %.1f | %.3f | %.1f | %.1f | %.1f | %.1f | %v |\n", r.Scenario, r.Phase, r.Requests, r.Tokens,
			r.TooMany, r.Wall.Seconds(), r.limitRatio(), r.ProviderCPU.Seconds(), r.TerraformCPU.Seconds(), float64(r.PeakRSS)/(1<<20),
			float64(r.TerraformRSS)/(1<<20), !r.Failed)
	}
}

func clientsTargets(b *strings.Builder, results []result) {
	ours, theirs := map[string]result{}, map[string]result{}
	for _, r := range results {
		phase := r.Phase
		if strings.HasPrefix(phase, "no-change plan") {
			phase = "no-change plan"
		}
		side := ours
		if strings.HasPrefix(r.Scenario, "incumbent") {
			side = theirs
		}
		// The slowest run of each phase stands for it.
		if prev, ok := side[phase]; !ok || r.Wall > prev.Wall {
			side[phase] = r
		}
	}
	for _, phase := range []string{"apply", "no-change plan", "destroy"} {
		o, ok1 := ours[phase]
		t, ok2 := theirs[phase]
		if !ok1 || !ok2 {
			continue
		}
		ratio := o.Wall.Seconds() / t.Wall.Seconds()
		fmt.Fprintf(b, "| clients and grants, %s: wall time at or below 0.4 × the incumbent's | %.1f s (%d requests) against %.1f s (%d requests): %.2f × | %v |\n",
			phase, o.Wall.Seconds(), o.Requests+o.Tokens, t.Wall.Seconds(), t.Requests+t.Tokens, ratio, ratio <= 0.4 && !o.Failed && !t.Failed)
	}
}
