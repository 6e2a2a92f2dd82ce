package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// separateBlocks is n APIs (identifier and name) and n token exchange
// profiles, one resource block per object, as `terraform query` generates
// them for an adopted tenant; in this provider's types or the incumbent's.
func separateBlocks(n int, actionID string, incumbent bool) string {
	api, profile, extra := "tenant_resource_server", "tenant_token_exchange_profile", ""
	if incumbent {
		api, profile, extra = "auth0_resource_server", "auth0_token_exchange_profile", "\n  type               = \"custom_authentication\""
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `
resource %[1]q "api_%[3]d" {
  identifier = "https://blocks.example.com/%[1]s/%[3]d"
  name       = "blocks %[3]d"
}

resource %[2]q "p_%[3]d" {
  name               = "blocks profile %[3]d"
  subject_token_type = "urn:blocks:%[1]s:%[3]d"
  action_id          = %[4]q%[5]s
}
`, api, profile, i, actionID, extra)
	}
	return b.String()
}

// countBlocks is separateBlocks written with count: one block per type.
func countBlocks(n int, actionID string) string {
	return fmt.Sprintf(`
resource "tenant_resource_server" "api" {
  count      = %[1]d
  identifier = "https://blocks.example.com/count/${count.index}"
  name       = "blocks ${count.index}"
}

resource "tenant_token_exchange_profile" "p" {
  count              = %[1]d
  name               = "blocks profile ${count.index}"
  subject_token_type = "urn:blocks:count:${count.index}"
  action_id          = %[2]q
}
`, n, actionID)
}

// runBlocks applies n APIs and n token exchange profiles as 2n separate
// resource blocks with one `terraform apply -auto-approve`, plans them with
// no change and destroys them, against one emulator over TLS at the limit:
// with this provider, with this provider and count instead of separate
// blocks, and with the incumbent when it is there (it speaks only HTTPS).
// Each run destroys its objects before the next starts.
func runBlocks(n int) ([]result, error) {
	emu, _, err := start(emulator.Options{TLS: true})
	if err != nil {
		return nil, err
	}
	defer emu.Close()
	type run struct {
		name, provider, config string
	}
	ours := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
	runs := []run{
		{"this provider, separate blocks", "terraform-provider-tenant", ours + separateBlocks(n, emu.Demo().ActionID, false)},
		{"this provider, count", "terraform-provider-tenant", ours + countBlocks(n, emu.Demo().ActionID)},
	}
	if err := acctest.Incumbent(); err != nil {
		fmt.Fprintf(os.Stderr, "bench: the incumbent is not measured: %v\n", err)
	} else {
		block, err := acctest.IncumbentProviderHCL(emu)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run{"incumbent " + acctest.IncumbentVersion + ", separate blocks", "terraform-provider-auth0",
			incumbentVersions + block + separateBlocks(n, emu.Demo().ActionID, true)})
	}
	emu.SetRateLimit(rps, burst)
	var out []result
	for _, r := range runs {
		cli, done, err := workdir(r.config)
		if err != nil {
			return nil, err
		}
		cli.Env = append(cli.Env, "SSL_CERT_FILE="+emu.CAFile())
		for _, ph := range []struct {
			name string
			args []string
		}{{"apply", applyArgs}, {"no-change plan", planArgs}, {"destroy", destroyArgs}} {
			res := measureProvider(emu, r.provider, r.name, 2*n, ph.name, func() (string, error) { return cli.Run(ph.args...) })
			fmt.Println(routeLine(res.Routes))
			out = append(out, res)
		}
		done()
	}
	return out, nil
}

// routeLine is a request count by route, sorted by route.
func routeLine(routes map[string]int64) string {
	keys := make([]string, 0, len(routes))
	for k := range routes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", strings.Replace(k, " /api/v2/", " /", 1), routes[k])
	}
	return strings.Join(parts, ", ")
}

// blocksSection reports runBlocks: each run's phases, their wall time over
// the incumbent's, and the requests of each by route.
func blocksSection(b *strings.Builder, results []result) {
	if len(results) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## %s objects as separate resource blocks\n\n%d APIs and %d token exchange profiles, one resource block each "+
		"(the shape `terraform query` generates for an adopted tenant), applied with one `terraform apply -auto-approve`, planned "+
		"with no change and destroyed, against one emulator over TLS at %d requests/s (burst %d); the same objects with `count`; and "+
		"the incumbent provider with the same blocks when it is there (`TENANT_INCUMBENT_PROVIDER` names its folder). "+
		"*× incumbent* is the wall time over the incumbent's for the same phase.\n\n",
		commas(results[0].N), results[0].N/2, results[0].N/2, rps, burst)
	b.WriteString("| run | phase | requests | token | 429 | wall (s) | × limit | × incumbent | peak RSS (MiB) | ok |\n" +
		"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, r := range results {
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %.1f | %.3f | %s | %.1f | %v |\n", r.Scenario, r.Phase, r.Requests, r.Tokens,
			r.TooMany, r.Wall.Seconds(), r.limitRatio(), againstIncumbent(results, r), float64(r.PeakRSS)/(1<<20), !r.Failed)
	}
	b.WriteString("\nRequests by route (the token request apart):\n\n| run | phase | requests by route |\n| --- | --- | --- |\n")
	for _, r := range results {
		fmt.Fprintf(b, "| %s | %s | %s |\n", r.Scenario, r.Phase, routeLine(r.Routes))
	}
}

// againstIncumbent is r's wall time over the incumbent's in the same
// phase, or a dash.
func againstIncumbent(results []result, r result) string {
	for _, o := range results {
		if strings.HasPrefix(o.Scenario, "incumbent") && o.Phase == r.Phase && !strings.HasPrefix(r.Scenario, "incumbent") {
			return fmt.Sprintf("%.2f", r.Wall.Seconds()/o.Wall.Seconds())
		}
	}
	return "—"
}

// blocksTargets are the goals of the separate blocks: apply and destroy
// within 1.05 × the limit and 0.4 × the incumbent's wall time, the
// no-change plan at most 16 requests for 1,000 objects.
func blocksTargets(b *strings.Builder, results []result) {
	for _, r := range results {
		if r.Scenario != "this provider, separate blocks" {
			continue
		}
		switch r.Phase {
		case "apply", "destroy":
			fmt.Fprintf(b, "| %s of %s separate blocks within 1.05 × requests ÷ %d/s | %.1f s for %d requests: %.3f × | %v |\n",
				r.Phase, commas(r.N), rps, r.Wall.Seconds(), r.Requests+r.Tokens, r.limitRatio(), r.limitRatio() <= 1.05 && !r.Failed)
			if x := againstIncumbent(results, r); x != "—" {
				var ratio float64
				fmt.Sscan(x, &ratio)
				fmt.Fprintf(b, "| %s of %s separate blocks within 0.4 × the incumbent's wall time | %s × | %v |\n",
					r.Phase, commas(r.N), x, ratio <= 0.4 && !r.Failed)
			}
		case "no-change plan":
			fmt.Fprintf(b, "| no-change plan of %s separate blocks: at most 16 requests | %d | %v |\n", commas(r.N), r.Requests, r.Requests <= 16 && !r.Failed)
		}
	}
}

// commas writes n with thousands separated by commas.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
