package conns

import (
	"context"
	"net/http"
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
	t.PlannedGrants = &PlannedGrants{owners: map[string]map[string]string{}}
}

// grantsOfClient is the tracker of a client's delete, which takes the
// client's grants with it.
func (t *TenantClient) grantsOfClient(w write) func(write) {
	return t.grantsTaken(w, func(segment string) func(*mgmt.ClientGrant) bool {
		return func(g *mgmt.ClientGrant) bool { return g.ClientID == segment }
	})
}

// grantsOfAPI is the tracker of an API's delete, which takes the grants of
// the API with it; an API the run has not read leaves it unable to tell
// which, and the grants' pages are read again.
func (t *TenantClient) grantsOfAPI(w write) func(write) {
	return t.grantsTaken(w, func(segment string) func(*mgmt.ClientGrant) bool {
		s, ok := t.ResourceServers.known(segment)
		if !ok {
			return nil
		}
		return func(g *mgmt.ClientGrant) bool { return g.Audience == s.Identifier }
	})
}

// grantsTaken tracks a delete that deletes the grants that match what its
// path's segment names (nil: grants the run cannot tell).
func (t *TenantClient) grantsTaken(w write, taken func(segment string) func(*mgmt.ClientGrant) bool) func(write) {
	if w.method != http.MethodDelete || len(w.rest) != 1 {
		return func(write) {}
	}
	match := taken(w.rest[0])
	t.Grants.begin()
	return func(w write) {
		if w.err != nil && !mgmt.IsNotFound(w.err) && refused(w.err) {
			match = func(*mgmt.ClientGrant) bool { return false }
		}
		t.Grants.removeWhere(match)
	}
}

// PlannedGrants records the grants the configuration's resources plan, by
// natural key and subject type, so that two resources of one
// configuration that grant the same client the same API are told apart at
// plan.
type PlannedGrants struct {
	mu     sync.Mutex
	owners map[string]map[string]string // grant key -> subject type -> the id of the grant its resource manages ("" for a new one)
}

// Claim records that a resource managing the grant own ("" when it
// creates one) plans the grant key for subject, and reports whether
// another resource of this run planned it for the same subject before
// (a resource that manages the grant is never the one told), and a
// subject type another resource planned it for (or "").
func (p *PlannedGrants) Claim(key, subject, own string) (taken bool, other string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	subjects := p.owners[key]
	if subjects == nil {
		subjects = map[string]string{}
		p.owners[key] = subjects
	}
	for s := range subjects {
		if s != subject {
			other = s
		}
	}
	prior, ok := subjects[subject]
	if !ok || prior == "" && own != "" {
		// The resource that manages the grant keeps it; a new one that
		// planned first is told by the check of the tenant's grants.
		subjects[subject] = own
		return false, other
	}
	return prior != own || own == "", other
}
