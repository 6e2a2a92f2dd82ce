// Command sweep deletes what acceptance tests left behind on a real tenant:
// every object whose name, identifier or subject token type carries the
// test prefix (clients by name, with their grants). It reads TENANT_DOMAIN and credentials like the provider.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func main() {
	dry := flag.Bool("dry-run", false, "list what would be deleted without deleting it")
	flag.Parse()
	c, err := mgmt.New(mgmt.Config{
		Domain: os.Getenv("TENANT_DOMAIN"), ClientID: os.Getenv("TENANT_CLIENT_ID"), ClientSecret: os.Getenv("TENANT_CLIENT_SECRET"),
		APIToken: os.Getenv("TENANT_API_TOKEN"), Audience: os.Getenv("TENANT_AUDIENCE"), UserAgent: "terraform-provider-tenant/sweep",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "sweep: set TENANT_DOMAIN and credentials:", err)
		os.Exit(2)
	}
	n, err := sweep(context.Background(), c, *dry)
	fmt.Printf("sweep: %d objects %s\n", n, map[bool]string{true: "would be deleted", false: "deleted"}[*dry])
	if err != nil {
		fmt.Fprintln(os.Stderr, "sweep:", err)
		os.Exit(1)
	}
}

func ours(values ...string) bool {
	for _, v := range values {
		if strings.Contains(v, acctest.Prefix) {
			return true
		}
	}
	return false
}

func sweep(ctx context.Context, c *mgmt.Client, dry bool) (int, error) {
	n := 0
	del := func(kind, id string, f func() error) error {
		n++
		fmt.Printf("%s %s\n", kind, id)
		if dry {
			return nil
		}
		return f()
	}
	profiles, err := c.AllTokenExchangeProfiles(ctx)
	if err != nil {
		return n, err
	}
	for _, p := range profiles {
		if ours(p.Name, p.SubjectTokenType) {
			if err := del("token_exchange_profile", p.ID, func() error { return c.DeleteTokenExchangeProfile(ctx, p.ID) }); err != nil {
				return n, err
			}
		}
	}
	servers, err := c.AllResourceServers(ctx)
	if err != nil {
		return n, err
	}
	for _, s := range servers {
		name := ""
		if s.Name != nil {
			name = *s.Name
		}
		if !s.IsSystem && ours(name, s.Identifier) {
			if err := del("resource_server", s.ID, func() error { return c.DeleteResourceServer(ctx, s.ID) }); err != nil {
				return n, err
			}
		}
	}
	// Actions go after the profiles, which may name them; force deletes one
	// that a profile outside the prefix still names.
	actions, err := c.AllActions(ctx, "", "")
	if err != nil {
		return n, err
	}
	for _, a := range actions {
		if ours(a.Name) {
			if err := del("action", a.ID, func() error { return c.DeleteAction(ctx, a.ID, true) }); err != nil {
				return n, err
			}
		}
	}
	// A client's grants go with it; grants of other clients for a swept API
	// went with the API.
	for cl, err := range c.EachClient(ctx, nil) {
		if err != nil {
			return n, err
		}
		if cl.Name != nil && ours(*cl.Name) {
			if err := del("client", cl.ClientID, func() error { return c.DeleteClient(ctx, cl.ClientID) }); err != nil {
				return n, err
			}
		}
	}
	roles, err := c.FindRolesByPrefix(ctx, acctest.Prefix)
	if err != nil {
		return n, err
	}
	for _, r := range roles {
		if err := del("role", r.ID, func() error { return c.DeleteRole(ctx, r.ID) }); err != nil {
			return n, err
		}
	}
	return n, nil
}
