package client_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestAccClientList_adopt: the list resources find the clients and grants
// made outside Terraform, `terraform query -generate-config-out` writes
// configuration without any secret, its apply only imports, and the plan
// after it is empty (Terraform 1.14 or later).
func TestAccClientList_adopt(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	acctest.RequireTerraform(t, "1.14.0", "terraform query and list resources")
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	ctx := context.Background()
	c := target.Client()
	scopes := []mgmt.ResourceServerScope{{Value: "read:orders"}, {Value: "write:orders"}}
	if _, err := c.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: "https://orders.example.com", Scopes: &scopes}); err != nil {
		t.Fatal(err)
	}
	web, err := c.CreateClient(ctx, mgmt.AppClient{
		Name: mgmt.Ptr("web"), AppType: mgmt.Ptr("regular_web"), OIDCConformant: mgmt.Ptr(true),
		Callbacks:        &[]string{"https://web.example.com/cb"},
		ClientMetadata:   &map[string]string{"team": "web"},
		TokenExchange:    &mgmt.TokenExchange{AllowAnyProfileOfType: []string{"custom_authentication"}},
		JWTConfiguration: &mgmt.JWTConfiguration{Alg: mgmt.Ptr("RS256")},
		RefreshToken:     &mgmt.RefreshToken{RotationType: mgmt.Ptr("rotating"), ExpirationType: mgmt.Ptr("expiring")},
		SessionTransfer:  &mgmt.SessionTransfer{CanCreateSessionTransferToken: mgmt.Ptr(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	worker, err := c.CreateClient(ctx, mgmt.AppClient{Name: mgmt.Ptr("worker"), AppType: mgmt.Ptr("non_interactive"), GrantTypes: &[]string{"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []mgmt.ClientGrant{
		{ClientID: worker.ClientID, Audience: "https://orders.example.com", Scope: &[]string{"read:orders"}},
		{ClientID: web.ClientID, Audience: "https://orders.example.com", Scope: &[]string{}, OrganizationUsage: mgmt.Ptr("allow"),
			AuthorizationDetailsTypes: &[]string{"payment"}},
	} {
		if _, err := c.CreateClientGrant(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	cli := acctest.NewCLI(t, map[string]string{
		"main.tf": acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()),
		"adopt.tfquery.hcl": `
list "tenant_client" "all" {
  provider         = tenant
  include_resource = true
}

list "tenant_client_grant" "all" {
  provider         = tenant
  include_resource = true
}
`,
	})
	out, err := cli.Run("query", "-generate-config-out=generated.tf", "-no-color")
	if err != nil {
		t.Fatalf("terraform query: %v\n%s", err, out)
	}
	generated, err := os.ReadFile(filepath.Join(cli.Dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// The two clients, the emulator's own (the provider's credentials), and
	// the three grants.
	if n := strings.Count(string(generated), "\nimport {"); n != 6 {
		t.Fatalf("the generated configuration imports %d objects, want 6:\n%s", n, generated)
	}
	for _, secret := range []string{web.ClientSecret, worker.ClientSecret, emu.ClientSecret()} {
		if strings.Contains(string(generated), secret) || strings.Contains(out, secret) {
			t.Fatal("a client secret is in the query's output or the generated configuration")
		}
	}
	out, err = cli.Run("apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil || !strings.Contains(out, "Resources: 6 imported, 0 added, 0 changed, 0 destroyed.") {
		t.Fatalf("the apply did more than import (%v):\n%s\n%s", err, out, generated)
	}
	if out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("the plan after adoption is not empty (%v):\n%s\n%s", err, out, generated)
	}
	// Filters: the machine-to-machine clients, the grants of one client.
	cli.Write(t, "adopt.tfquery.hcl", `
list "tenant_client" "workers" {
  provider = tenant
  config {
    app_types = ["non_interactive"]
  }
}

list "tenant_client_grant" "web" {
  provider = tenant
  config {
    client_id = "`+web.ClientID+`"
  }
}
`)
	out, err = cli.Run("query", "-no-color")
	if err != nil {
		t.Fatalf("terraform query: %v\n%s", err, out)
	}
	if !strings.Contains(out, "worker ("+worker.ClientID+")") || strings.Contains(out, "web ("+web.ClientID+")") ||
		!strings.Contains(out, web.ClientID+" for https://orders.example.com") || strings.Contains(out, worker.ClientID+" for") {
		t.Fatalf("the filtered lists:\n%s", out)
	}
}
