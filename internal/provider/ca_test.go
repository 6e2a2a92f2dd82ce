package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// TestAccProvider_caFile: the emulator's --tls certificate is trusted
// through ca_file, and refused without it.
func TestAccProvider_caFile(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTargetWith(t, emulator.Options{TLS: true})
	emu := target.RequireEmulator(t)
	role := fmt.Sprintf("\nresource \"tenant_role\" \"r\" {\n  name = %q\n}\n", acctest.RandomName())
	block := func(caFile string) string {
		// Without the CA, the certificate error is not retried for long.
		line := "  max_retries   = 0\n"
		if caFile != "" {
			line = fmt.Sprintf("  ca_file       = %q\n", caFile)
		}
		return fmt.Sprintf("provider \"tenant\" {\n  domain        = %q\n  client_id     = %q\n  client_secret = %q\n%s}\n",
			emu.Domain(), emu.ClientID(), emu.ClientSecret(), line)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{Config: block("") + role, ExpectError: acctest.ExpectError(`certificate signed by unknown authority`)},
			{Config: block(emu.CAFile()) + role},
		},
	})
}
