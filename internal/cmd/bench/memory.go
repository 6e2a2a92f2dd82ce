package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// runLargeCollections plans one resource whose collection holds 10 or
// 1,000 elements (an API's scopes, a role's permissions on one API), with
// no change and with one element edited, plans times each, and reports the
// median wall time of each.
func runLargeCollections(plans int) ([]result, error) {
	emu, c, err := start(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer emu.Close()
	l, err := acctest.SetUpLarge(context.Background(), c, "bench", 1000)
	if err != nil {
		return nil, err
	}
	provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
	var out []result
	for _, kind := range []struct {
		name   string
		config func(n int, edited bool) string
	}{
		{"API scopes", l.ScopesConfig},
		{"role permissions on one API", func(n int, edited bool) string { return l.PermissionsConfig(n, edited, false) }},
	} {
		for _, n := range []int{10, 1000} {
			cli, done, err := workdir(provider + kind.config(n, false))
			if err != nil {
				return nil, err
			}
			if r := measure(emu, kind.name, n, "apply", func() (string, error) { return cli.Run(applyArgs...) }); r.Failed {
				done()
				return nil, fmt.Errorf("%s: apply of %d failed", kind.name, n)
			}
			for _, edited := range []bool{false, true} {
				phase := "no-change plan"
				if edited {
					phase = "plan editing one"
					if err := os.WriteFile(cli.Dir+"/main.tf", []byte(provider+kind.config(n, true)), 0o600); err != nil {
						done()
						return nil, err
					}
				}
				var runs []result
				for range plans {
					runs = append(runs, measure(emu, kind.name, n, phase, func() (string, error) {
						out, err := cli.Run(planArgs...)
						if changed := err != nil; changed == edited && strings.Contains(out, "Plan:") == edited {
							return out, nil
						}
						return out, fmt.Errorf("unexpected plan (edited %v): %v", edited, err)
					}))
				}
				out = append(out, median(runs))
			}
			measure(emu, kind.name, n, "destroy", func() (string, error) { return cli.Run(destroyArgs...) })
			done()
		}
	}
	return out, nil
}

// median is the run of median wall time.
func median(runs []result) result {
	sorted := append([]result(nil), runs...)
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if sorted[j].Wall < sorted[i].Wall {
				sorted[i], sorted[j] = sorted[j], sorted[i]
			}
		}
	}
	m := sorted[len(sorted)/2]
	for _, r := range runs {
		m.Failed = m.Failed || r.Failed
	}
	m.Phase = fmt.Sprintf("%s (median of %d)", m.Phase, len(runs))
	return m
}

// memoryObjects is n APIs (identifier and name) and n token exchange
// profiles, in this provider's or the incumbent's types.
func memoryObjects(n int, actionID string, incumbent bool) string {
	api, profile, extra := "tenant_resource_server", "tenant_token_exchange_profile", ""
	if incumbent {
		api, profile, extra = "auth0_resource_server", "auth0_token_exchange_profile", "\n  type               = \"custom_authentication\""
	}
	return fmt.Sprintf(`
resource %[1]q "api" {
  count      = %[3]d
  identifier = "https://memory.example.com/%[1]s/${count.index}"
  name       = "memory ${count.index}"
}

resource %[2]q "p" {
  count              = %[3]d
  name               = "memory profile ${count.index}"
  subject_token_type = "urn:memory:%[1]s:${count.index}"
  action_id          = %[4]q%[5]s
}
`, api, profile, n, actionID, extra)
}

const incumbentVersions = `
terraform {
  required_providers {
    auth0 = {
      source  = "auth0/auth0"
      version = "` + acctest.IncumbentVersion + `"
    }
  }
}
`

// runMemory applies 500 APIs and 500 profiles (no rate limit) and plans
// them with no change plans times, with this provider and, when it is
// there, with the incumbent, against one emulator over TLS (the incumbent
// speaks only HTTPS); each destroys its objects before the other starts.
func runMemory(plans int) ([]result, error) {
	emu, _, err := start(emulator.Options{TLS: true})
	if err != nil {
		return nil, err
	}
	defer emu.Close()
	type run struct {
		name, provider, config string
	}
	runs := []run{{"this provider", "terraform-provider-tenant",
		acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + memoryObjects(500, emu.Demo().ActionID, false)}}
	if err := acctest.Incumbent(); err != nil {
		fmt.Fprintf(os.Stderr, "bench: the incumbent's memory is not measured: %v\n", err)
	} else {
		block, err := acctest.IncumbentProviderHCL(emu)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run{"incumbent " + acctest.IncumbentVersion, "terraform-provider-auth0", incumbentVersions + block + memoryObjects(500, emu.Demo().ActionID, true)})
	}
	var out []result
	for _, r := range runs {
		cli, done, err := workdir(r.config)
		if err != nil {
			return nil, err
		}
		cli.Env = append(cli.Env, "SSL_CERT_FILE="+emu.CAFile())
		phase := func(name string, args []string) result {
			return measureProvider(emu, r.provider, r.name, 1000, name, func() (string, error) { return cli.Run(args...) })
		}
		if a := phase("apply", applyArgs); a.Failed {
			done()
			return nil, fmt.Errorf("%s: apply failed", r.name)
		}
		time.Sleep(time.Second)
		for i := range plans {
			out = append(out, phase(fmt.Sprintf("no-change plan %d", i+1), planArgs))
		}
		phase("destroy", destroyArgs)
		done()
	}
	return out, nil
}
