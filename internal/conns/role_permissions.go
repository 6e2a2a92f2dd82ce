package conns

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// RolePermissions is everything about roles' permissions that spans
// resources, for one run:
//
//   - Read shares one paged read of a role's permissions with every resource
//     that refreshes them (a hundred tenant_role_permission instances of one
//     role cost one read), until a write to the role;
//   - Change and Converge write one at a time per role, and a
//     removal leaves the pairs assigned earlier in the same run: when one
//     apply removes a pair (a resource destroyed) and assigns it (another
//     created: a for_each key renamed, a role switching from one permission
//     resource type to the other), the pair ends assigned, whatever order
//     Terraform ran the two in;
//   - ClaimExclusive and ClaimPair count the resources of the configuration
//     being planned that manage each role's permissions.
type RolePermissions struct {
	api     *mgmt.Client
	scopes  *ScopeWrites
	planned *Planned

	mu    sync.Mutex
	roles map[string]*roleState
}

type roleState struct {
	// writes is held across each write to the role's permissions, and the
	// read a write depends on.
	writes sync.Mutex
	// read is the read shared in this run; nil until one starts, and after
	// a write.
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
}

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
// does not exist), read once in this run and shared with every other reader
// until a write to the role.
func (p *RolePermissions) Read(ctx context.Context, roleID string) ([]mgmt.RolePermission, error) {
	p.mu.Lock()
	r := p.role(roleID)
	c := r.read
	if c == nil {
		c = &readCall{done: make(chan struct{})}
		r.read = c
		p.mu.Unlock()
		c.perms, c.err = p.api.RolePermissions(ctx, roleID)
		if c.err != nil && !mgmt.IsNotFound(c.err) {
			// An error but the role's 404 is not shared with later readers;
			// it is dropped before the waiters wake, so one that reads anew
			// starts afresh.
			p.mu.Lock()
			if r.read == c {
				r.read = nil
			}
			p.mu.Unlock()
		}
		close(c.done)
		return c.perms, c.err
	}
	p.mu.Unlock()
	select {
	case <-c.done:
		if c.err != nil && ctx.Err() == nil && (errors.Is(c.err, context.Canceled) || errors.Is(c.err, context.DeadlineExceeded)) {
			// The read was another caller's, which gave up: read anew.
			return p.Read(ctx, roleID)
		}
		return c.perms, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// forget makes the next read of roleID read it anew; the client calls it
// around each write to the role.
func (p *RolePermissions) forget(roleID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.roles[roleID]; ok {
		r.read = nil
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
// write of the run will add it.
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
