package conns

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// RolePermissions is everything about roles' permissions that spans
// resources, for one run:
//
//   - Read shares one paged read of a role's permissions with every resource
//     that refreshes or checks them (a hundred tenant_role_permission
//     instances of one role cost one read), and the run's own writes to the
//     role's permissions update it instead of dropping it;
//   - Change and Converge write one at a time per role, and a
//     removal leaves the pairs assigned earlier in the same run: when one
//     apply removes a pair (a resource destroyed) and assigns it (another
//     created: a for_each key renamed, a role switching from one permission
//     resource type to the other), the pair ends assigned, whatever order
//     Terraform ran the two in;
//   - ClaimExclusive and ClaimPair count the resources of the configuration
//     being planned that manage each role's permissions;
//   - Holding says which roles hold an API's scopes, for the plan-time
//     check of scopes removed from an API, from the same reads.
type RolePermissions struct {
	api     *mgmt.Client
	scopes  *ScopeWrites
	planned *Planned

	mu    sync.Mutex
	roles map[string]*roleState
	// holdingRefused is set once Holding has returned the tenant's refusal.
	holdingRefused bool
}

type roleState struct {
	// writes is held across each write to the role's permissions, and the
	// read a write depends on.
	writes sync.Mutex
	// read is the read shared in this run; nil until one starts, and after
	// a write it cannot be brought up to date with.
	read *readCall
	// assigned are the pairs assigned to the role in this run, or found
	// held by a Converge that wants them.
	assigned map[mgmt.Permission]bool
	// exclusive holds the permissions of each tenant_role_permissions
	// planned for the role, pairs counts the tenant_role_permission
	// instances per pair.
	exclusive map[string]bool
	pairs     map[mgmt.Permission]int
	warned    bool
}

type readCall struct {
	done  chan struct{}
	perms []mgmt.RolePermission
	err   error
	// stale names the APIs whose pairs in perms may be out of date: a
	// write of the API that the read cannot be brought up to date with.
	// Readers of those pairs read anew; others still use it.
	stale map[string]bool
	// finished is set, under RolePermissions.mu, when the answer is in;
	// until then the run's writes to the role queue as patches.
	finished bool
	patches  []readPatch
}

// readPatch brings a finished read up to date with a write of the run; it
// gets a copy of the read to change (perms and stale are its own to
// replace, not to change in place).
type readPatch func(c *readCall)

func newRolePermissions(api *mgmt.Client, scopes *ScopeWrites, planned *Planned) *RolePermissions {
	return &RolePermissions{api: api, scopes: scopes, planned: planned, roles: map[string]*roleState{}}
}

// role returns the state of roleID; p.mu must be held.
func (p *RolePermissions) role(roleID string) *roleState {
	r, ok := p.roles[roleID]
	if !ok {
		r = &roleState{assigned: map[mgmt.Permission]bool{}, exclusive: map[string]bool{}, pairs: map[mgmt.Permission]int{}}
		p.roles[roleID] = r
	}
	return r
}

// Read returns the permissions roleID holds (or the 404 of a role that
// does not exist), read once in this run and shared with every other
// reader; the run's own writes to the role update it (a write whose outcome
// is unknown drops it, and the next reader reads anew).
func (p *RolePermissions) Read(ctx context.Context, roleID string) ([]mgmt.RolePermission, error) {
	return p.read(ctx, roleID, "")
}

// read is Read for a reader of the pairs of the API identifier only (all
// pairs when ""): it shares a read that is out of date for other APIs.
func (p *RolePermissions) read(ctx context.Context, roleID, identifier string) ([]mgmt.RolePermission, error) {
	p.mu.Lock()
	r := p.role(roleID)
	c := r.read
	if c != nil && c.finished && (identifier == "" && len(c.stale) > 0 || c.stale[identifier]) {
		c = nil
	}
	if c == nil {
		c = &readCall{done: make(chan struct{})}
		r.read = c
		p.mu.Unlock()
		perms, err := p.api.RolePermissions(ctx, roleID)
		p.mu.Lock()
		c.perms, c.err, c.finished = perms, err, true
		keep := err == nil || mgmt.IsNotFound(err)
		if len(c.patches) > 0 && err != nil {
			// A role written while its read failed: only a new read
			// tells what it holds.
			keep = false
		}
		for _, patch := range c.patches {
			if err == nil {
				patch(c)
			}
		}
		c.patches = nil
		if !keep && r.read == c {
			// An error but the role's 404 is not shared with later
			// readers; it is dropped before the waiters wake, so one that
			// reads anew starts afresh.
			r.read = nil
		}
		perms, err = c.perms, c.err
		p.mu.Unlock()
		close(c.done)
		return perms, err
	}
	p.mu.Unlock()
	select {
	case <-c.done:
		if c.err != nil && ctx.Err() == nil && (errors.Is(c.err, context.Canceled) || errors.Is(c.err, context.DeadlineExceeded)) {
			// The read was another caller's, which gave up: read anew.
			return p.read(ctx, roleID, identifier)
		}
		return c.perms, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// patch brings the run's read of roleID up to date with a write of the
// run, now or, for a read in flight, when its answer comes.
func (p *RolePermissions) patch(roleID string, f readPatch) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.roles[roleID]; ok {
		r.patch(f)
	}
}

// patch is RolePermissions.patch for r; RolePermissions.mu must be held.
func (r *roleState) patch(f readPatch) {
	c := r.read
	switch {
	case c == nil:
	case !c.finished:
		c.patches = append(c.patches, f)
	case c.err != nil:
		r.read = nil
	default:
		// A new call: readers of the old one keep what they were given.
		done := make(chan struct{})
		close(done)
		n := &readCall{done: done, perms: c.perms, stale: c.stale, finished: true}
		f(n)
		r.read = n
	}
}

// forget makes the next read of roleID read it anew.
func (p *RolePermissions) forget(roleID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.roles[roleID]; ok {
		r.read = nil
	}
}

// trackRole keeps the reads up to date with a write under /roles: pairs
// assigned or removed are patched into the role's read, a role deleted is
// read anew (its 404), and a write of its permissions whose outcome is not
// known drops the read.
func (p *RolePermissions) trackRole(w write) func(write) {
	switch {
	case len(w.rest) == 1 && w.method == http.MethodDelete:
		roleID := w.rest[0]
		return func(write) { p.forget(roleID) }
	case len(w.rest) == 2 && w.rest[1] == "permissions":
		roleID := w.rest[0]
		body, ok := w.body.(mgmt.PermissionsBody)
		return func(w write) {
			switch {
			case w.err != nil && refused(w.err):
			case w.err != nil || !ok:
				p.forget(roleID)
			case w.method == http.MethodPost:
				p.patch(roleID, withPairs(body.Permissions, nil))
			case w.method == http.MethodDelete:
				p.patch(roleID, withPairs(nil, body.Permissions))
			default:
				p.forget(roleID)
			}
		}
	}
	return func(write) {}
}

// withPairs is the patch of a write that assigned add and removed remove.
func withPairs(add, remove []mgmt.Permission) readPatch {
	return func(c *readCall) {
		gone := make(map[mgmt.Permission]bool, len(remove))
		for _, pair := range remove {
			gone[pair] = true
		}
		out := make([]mgmt.RolePermission, 0, len(c.perms)+len(add))
		held := make(map[mgmt.Permission]bool, len(c.perms))
		for _, perm := range c.perms {
			if !gone[perm.Permission] {
				out = append(out, perm)
				held[perm.Permission] = true
			}
		}
		for _, pair := range add {
			if !held[pair] {
				out = append(out, mgmt.RolePermission{Permission: pair})
				held[pair] = true
			}
		}
		sort.Slice(out, func(i, j int) bool {
			if out[i].ResourceServerIdentifier != out[j].ResourceServerIdentifier {
				return out[i].ResourceServerIdentifier < out[j].ResourceServerIdentifier
			}
			return out[i].PermissionName < out[j].PermissionName
		})
		c.perms = out
	}
}

// trackAPI keeps the reads up to date with a write of an API: whether the
// tenant keeps a role's pairs of a scope the API no longer defines, or of
// an API deleted, the reference does not say, so the reads of roles that
// hold such pairs are marked out of date for that API (read anew by a
// reader of its pairs). A write of an API the run cannot name (one it has
// not read) drops every read.
func (p *RolePermissions) trackAPI(apis *SharedReads[mgmt.ResourceServer]) tracker {
	return func(w write) func(write) {
		if len(w.rest) == 0 {
			// A create: no role holds a pair of an API that is not there.
			return func(write) {}
		}
		identifier := ""
		if s, ok := apis.known(w.rest[0]); ok {
			identifier = s.Identifier
		}
		return func(w write) {
			if w.err != nil && refused(w.err) {
				return
			}
			var defined map[string]bool // none: every pair of the API
			if s, ok := w.answer.(*mgmt.ResourceServer); ok && w.err == nil && w.method != http.MethodDelete {
				identifier, defined = s.Identifier, s.ScopeValues()
			}
			if identifier == "" {
				p.forgetAll()
				return
			}
			p.undefined(identifier, defined)
		}
	}
}

// forgetAll makes the next read of every role read it anew.
func (p *RolePermissions) forgetAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.roles {
		r.read = nil
	}
}

// undefined marks out of date, for the API identifier, the reads of roles
// that hold a pair of it whose scope is not in defined.
func (p *RolePermissions) undefined(identifier string, defined map[string]bool) {
	mark := func(c *readCall) {
		for _, perm := range c.perms {
			if perm.ResourceServerIdentifier == identifier && !defined[perm.PermissionName] {
				stale := maps.Clone(c.stale)
				if stale == nil {
					stale = map[string]bool{}
				}
				stale[identifier] = true
				c.stale = stale
				return
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.roles {
		r.patch(mark)
	}
}

// lock takes the role's write lock and returns its state and the unlock.
func (p *RolePermissions) lock(roleID string) (*roleState, func()) {
	p.mu.Lock()
	r := p.role(roleID)
	p.mu.Unlock()
	r.writes.Lock()
	return r, r.writes.Unlock
}

// RemoveError is a Change whose additions were made and whose removal
// failed.
type RemoveError struct{ Err error }

func (e *RemoveError) Error() string { return e.Err.Error() }
func (e *RemoveError) Unwrap() error { return e.Err }

// Change assigns add to the role, then removes remove from it but for the
// pairs assigned in this run, which it returns as kept. A pair kept in the
// configuration is never missing from the role: additions come first.
func (p *RolePermissions) Change(ctx context.Context, roleID string, add, remove []mgmt.Permission) (kept []mgmt.Permission, err error) {
	r, unlock := p.lock(roleID)
	defer unlock()
	return p.change(ctx, r, roleID, add, add, remove)
}

// change assigns add, records hold as assigned in this run, and removes
// remove but for the pairs so recorded.
func (p *RolePermissions) change(ctx context.Context, r *roleState, roleID string, hold, add, remove []mgmt.Permission) ([]mgmt.Permission, error) {
	if len(add) > 0 {
		if err := p.assign(ctx, roleID, add); err != nil {
			return nil, err
		}
	}
	var kept, gone []mgmt.Permission
	p.mu.Lock()
	for _, pair := range hold {
		r.assigned[pair] = true
	}
	for _, pair := range remove {
		if r.assigned[pair] {
			kept = append(kept, pair)
		} else {
			gone = append(gone, pair)
		}
	}
	p.mu.Unlock()
	if len(gone) > 0 {
		if err := p.api.RemoveRolePermissions(ctx, roleID, gone); err != nil {
			return kept, &RemoveError{Err: err}
		}
	}
	return kept, nil
}

// Converge makes the role hold want: it reads what the role holds (the
// run's read, which any write to the role renews), assigns what is missing
// and removes the rest but for the pairs assigned in this run. Every pair of
// want counts as assigned in this run, also one the role already held: a
// tenant_role_permission destroyed in the same apply leaves it. It returns
// what the role held, and the pairs added, removed and kept.
func (p *RolePermissions) Converge(ctx context.Context, roleID string, want []mgmt.Permission) (held, added, removed, kept []mgmt.Permission, err error) {
	r, unlock := p.lock(roleID)
	defer unlock()
	perms, err := p.Read(ctx, roleID)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	held = mgmt.Pairs(perms)
	added, removed = mgmt.DiffPermissions(want, held)
	kept, err = p.change(ctx, r, roleID, want, added, removed)
	return held, added, removed, kept, err
}

// ClaimExclusive records that a tenant_role_permissions of the
// configuration being planned manages roleID with the permissions
// described by permissions (their planned value, as text). It returns how
// many different permission sets claim the role, this one included: two
// would each remove the other's pairs on every apply. Claims of the same
// set count once, since Terraform plans one instance twice when it replaces
// it (once as an update, once as a create) and two instances that list the
// same pairs do not undo each other. mixed is true the first time the role
// is claimed by both permission resource types.
func (p *RolePermissions) ClaimExclusive(roleID, permissions string) (sets int, mixed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.role(roleID)
	r.exclusive[permissions] = true
	return len(r.exclusive), r.mixed()
}

// ClaimPair records that one tenant_role_permission instance of the
// configuration being planned manages pair of roleID. It returns how many
// instances manage that pair, this one included, and, the first time the
// role is claimed by both permission resource types, true.
func (p *RolePermissions) ClaimPair(roleID string, pair mgmt.Permission) (instances int, mixed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.role(roleID)
	r.pairs[pair]++
	return r.pairs[pair], r.mixed()
}

// mixed reports, once, that both types claim the role; p.mu must be held.
func (r *roleState) mixed() bool {
	if r.warned || len(r.exclusive) == 0 || len(r.pairs) == 0 {
		return false
	}
	r.warned = true
	return true
}

// assign adds pairs to the role after the API writes in flight (a scope
// the pairs name may be on its way). When the tenant refuses and an API of
// the pairs does not define its scope yet, it waits for the run's next API
// write (see ScopeWrites) and tries again. When the scopes exist by the time
// it looks (a write committed after the refusal), it tries once more: a
// refusal then is final.
func (p *RolePermissions) assign(ctx context.Context, roleID string, add []mgmt.Permission) error {
	if err := p.scopes.idle(ctx); err != nil {
		return err
	}
	deadline := time.Now().Add(p.scopes.Wait)
	retried := false
	for {
		since := p.scopes.mark()
		err := p.api.AddRolePermissions(ctx, roleID, add)
		if err == nil || !(mgmt.IsBadRequest(err) || mgmt.IsNotFound(err)) {
			return err
		}
		missing, excluded := p.scopeMissing(ctx, add)
		switch {
		case excluded:
			return err
		case !missing:
			if retried {
				return err
			}
			retried = true
		case !p.scopes.after(ctx, since, deadline):
			return err
		}
	}
}

// scopeMissing reports whether an API the pairs name is missing, or does
// not define the pair's scope, as the tenant shows it now; and whether the
// API's resource of this run has planned without such a scope, so that no
// write of the run will add it. An API no resource of this process has
// planned may still be one of the configuration's, named by a literal
// identifier, whose plan comes later: the apply plans each resource again
// just before it writes it, in no order between the two.
func (p *RolePermissions) scopeMissing(ctx context.Context, pairs []mgmt.Permission) (missing, excluded bool) {
	for identifier, names := range mgmt.NamesByAPI(pairs) {
		s, err := p.api.FindResourceServer(ctx, identifier)
		if err != nil {
			return false, false
		}
		defined := s.ScopeValues()
		coming, planned := p.planned.Scopes(identifier)
		for _, name := range names {
			if !defined[name] {
				missing = true
				excluded = excluded || (planned && coming != nil && !coming[name])
			}
		}
	}
	return missing, excluded
}

// ErrReported is the error of a check whose read the tenant refused once
// already in this run: the first check said so, the others stay quiet.
var ErrReported = errors.New("the tenant refused this read earlier in the run")

// Holding answers the plan-time check of scopes removed from an API: which
// of the tenant's first limit roles (in id order) hold each of scopes of
// the API identifier as a permission, and how many roles the tenant has.
// The roles come from the walk of the roles list and each role's
// permissions from its shared read (Read), both made once per run whatever
// the number of APIs checked, and kept up to date by the run's writes. A
// read the tenant refuses (a client without read:roles) is returned to the
// first check of the run; later checks get ErrReported.
func (p *RolePermissions) Holding(ctx context.Context, roles *SharedReads[mgmt.Role], identifier string, scopes []string, limit int) (map[string][]mgmt.Role, int, error) {
	all, err := roles.All(ctx)
	if err == nil {
		wanted := make(map[string]bool, len(scopes))
		for _, s := range scopes {
			wanted[s] = true
		}
		holders := map[string][]mgmt.Role{}
		for _, role := range all[:min(limit, len(all))] {
			perms, rerr := p.read(ctx, role.ID, identifier)
			if mgmt.IsNotFound(rerr) {
				continue // deleted since the list was read
			}
			if rerr != nil {
				err = rerr
				break
			}
			for _, perm := range perms {
				if perm.ResourceServerIdentifier == identifier && wanted[perm.PermissionName] {
					holders[perm.PermissionName] = append(holders[perm.PermissionName], role)
				}
			}
		}
		if err == nil {
			return holders, len(all), nil
		}
	}
	if ctx.Err() != nil {
		return nil, 0, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holdingRefused {
		return nil, 0, ErrReported
	}
	p.holdingRefused = true
	return nil, 0, err
}
