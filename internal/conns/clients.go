package conns

import (
	"context"
	"strconv"
	"sync"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// initClients builds the shared reads of clients and client grants (a
// grant's natural key is its client and API, mgmt.GrantKey) and the
// registry of the grants the configuration plans.
func (t *TenantClient) initClients(api *mgmt.Client) {
	t.Clients = newSharedReads(func(c *mgmt.AppClient) string { return c.ClientID },
		func(ctx context.Context, cursor string) (listPage[mgmt.AppClient], error) {
			page, _ := strconv.Atoi(cursor)
			items, more, total, err := api.ClientsPage(ctx, page, nil)
			return listPage[mgmt.AppClient]{items: items, next: strconv.Itoa(page + 1), done: !more, total: total}, err
		}, api.GetClient)
	t.Grants = newSharedReads(func(g *mgmt.ClientGrant) string { return g.ID },
		func(ctx context.Context, cursor string) (listPage[mgmt.ClientGrant], error) {
			page, _ := strconv.Atoi(cursor)
			items, more, total, err := api.ClientGrantsPage(ctx, page, mgmt.GrantFilter{})
			return listPage[mgmt.ClientGrant]{items: items, next: strconv.Itoa(page + 1), done: !more, total: total}, err
		}, api.GetClientGrant).withNatural(func(g *mgmt.ClientGrant) string { return g.Key() }, api.FindClientGrantByKey)
	t.GrantsAtStart = newSharedReads(func(g *mgmt.ClientGrant) string { return g.ID },
		func(ctx context.Context, cursor string) (listPage[mgmt.ClientGrant], error) {
			page, _ := strconv.Atoi(cursor)
			items, more, total, err := api.ClientGrantsPage(ctx, page, mgmt.GrantFilter{})
			return listPage[mgmt.ClientGrant]{items: items, next: strconv.Itoa(page + 1), done: !more, total: total}, err
		}, api.GetClientGrant).withNatural(func(g *mgmt.ClientGrant) string { return g.Key() }, api.FindClientGrantByKey)
	t.PlannedGrants = &PlannedGrants{owners: map[string]string{}}
}

// forgetClients drops what a write under /clients or /client-grants (or a
// deleted API, whose grants go with it) may have made out of date.
func (t *TenantClient) forgetClients(segment string) {
	switch segment {
	case "clients":
		t.Clients.invalidate()
		t.Grants.invalidate() // a client's grants go with it
	case "client-grants", "resource-servers":
		t.Grants.invalidate()
	}
}

// PlannedGrants records the grants the configuration's resources plan, by
// natural key, so that two resources of one configuration that grant the
// same client the same API are told apart at plan.
type PlannedGrants struct {
	mu     sync.Mutex
	owners map[string]string // grant key -> the id of the grant its resource manages ("" for a new one)
}

// Claim records that a resource managing the grant own ("" when it
// creates one) plans the grant key, and reports whether another resource
// of this run planned it first.
func (p *PlannedGrants) Claim(key, own string) (taken bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	prior, ok := p.owners[key]
	if !ok {
		p.owners[key] = own
		return false
	}
	return prior != own || own == ""
}
