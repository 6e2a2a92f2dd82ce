package conns

import (
	"sort"
	"sync"
)

// Planned is what the resources of the configuration being planned say
// they will make of the tenant, for the plan-time checks that span
// resources: the scopes each API will define, the actions the run deploys,
// and the scopes the run's role permissions need. Terraform plans
// resources that reference each other in order, so a check sees what the
// resources it references planned; between resources that do not reference
// each other (an API named by its literal identifier) the order is not
// set, and each side reports what it can see when it plans second.
type Planned struct {
	mu      sync.Mutex
	scopes  map[string]map[string]bool            // API identifier -> the scopes it will define
	deploys map[string]bool                       // action id -> deployed by this run
	managed map[string]bool                       // action id -> an action of the configuration
	needs   map[string]map[string]map[string]bool // API identifier -> scope -> roles that need it
}

func newPlanned() *Planned {
	return &Planned{scopes: map[string]map[string]bool{}, deploys: map[string]bool{}, managed: map[string]bool{}, needs: map[string]map[string]map[string]bool{}}
}

// DefineScopes records that the API identifier will define exactly scopes
// once the run is applied, and returns the scopes that role permissions
// planned earlier in this run need and the API will not define, with the
// roles that need each.
func (p *Planned) DefineScopes(identifier string, scopes []string) map[string][]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	set := make(map[string]bool, len(scopes))
	for _, s := range scopes {
		set[s] = true
	}
	p.scopes[identifier] = set
	missing := map[string][]string{}
	for scope, roles := range p.needs[identifier] {
		if !set[scope] {
			missing[scope] = sortedKeys(roles)
		}
	}
	return missing
}

// ScopesUnknown records that the API identifier's resource has planned
// scopes that are unknown until apply.
func (p *Planned) ScopesUnknown(identifier string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scopes[identifier] = nil
}

// Scopes returns the scopes an API of this run will define, and whether
// its resource has planned yet; nil, true when they are unknown until
// apply.
func (p *Planned) Scopes(identifier string) (map[string]bool, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.scopes[identifier]
	return s, ok
}

// NeedScope records that roleID is to hold scope of the API identifier, for
// the API's resource if it plans later in this run.
func (p *Planned) NeedScope(identifier, scope, roleID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.needs[identifier] == nil {
		p.needs[identifier] = map[string]map[string]bool{}
	}
	if p.needs[identifier][scope] == nil {
		p.needs[identifier][scope] = map[string]bool{}
	}
	p.needs[identifier][scope][roleID] = true
}

// Manage records that an action of the configuration has planned with
// the id, whether or not the run deploys it.
func (p *Planned) Manage(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.managed[id] = true
}

// Manages reports whether an action of the configuration has planned with
// the id (as far as the run has planned yet).
func (p *Planned) Manages(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.managed[id]
}

// Deploy records that this run deploys the action id.
func (p *Planned) Deploy(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.deploys[id] = true
}

// Deploys reports whether this run deploys the action id (as far as its
// resource has planned yet).
func (p *Planned) Deploys(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.deploys[id]
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
