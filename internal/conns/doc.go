// Package conns holds TenantClient, the provider's one object for a
// configured tenant. The provider builds it once in Configure and hands it to
// every resource, data source, list resource and action; it owns the plain
// Management API client and every behaviour that spans resources, each a
// named part of it. Terraform starts the provider anew for each of
// validate, plan and apply (an apply's process plans each object again just
// before it writes it), and configures it once in each, so a run here is
// one process: everything lasts one run and nothing depends on what ran
// before. Tests build one with New.
//
// This is the one list of those behaviours, with the requests each costs
// in a run and the waits it can add. N is the number of objects of a type
// the run reads or checks, T the number the tenant holds, P = ⌈T/100⌉ its
// list pages. The shared reads and the action reads never wait on a timer
// for other calls to arrive: what they cost follows from the configuration
// and the tenant, not from when Terraform's calls come. One part waits on a
// timer for another resource's call: Scopes (60 s), a refused assignment of
// a permission waiting for its API's write, described below with its
// effect.
//
// ResourceServers, Profiles, Roles (SharedReads; shared_reads.go):
//   - Read (a refresh): the first two reads of the type are direct GETs;
//     from the third, the whole list is walked once (P pages) and serves
//     every later read, when P <= 10 (walkPages). Past 10 pages, the first
//     page tells the size and reads stay direct until they have cost as
//     much as the walk, which then starts again from the first page: at
//     most 2 + (P - 10) direct reads + 1 + P pages. An object the walk does
//     not hold (deleted outside Terraform) costs its direct read (the 404).
//     Wait: a read past the direct ones waits for the pages being fetched.
//   - Find (a plan-time check by identifier, name or subject token type):
//     counted like Read; APIs and roles look the first two up directly
//     (GET /resource-servers/{identifier}, GET /roles?name_filter=), token
//     exchange profiles have no such lookup and walk the list at the first
//     find. A plan creating N objects of a type costs at most 2 + P.
//   - All (every object: the roles for Holding, the profiles an action's
//     delete looks at): the whole walk, shared with Read and Find.
//   - AfterWrites: returns once no write of the type is in flight, so that
//     what the run knows holds them; an action's delete that finds
//     profiles using it asks All again after it (a profile that names the
//     action by its literal id is deleted in no order with it). Wait: as
//     long as writes of the type are in flight, those that start while it
//     waits included; no request.
//   - Writes: a create adds the object of its answer to what the run
//     knows, an update replaces it, a delete removes it; a write whose
//     outcome is unknown (no answer, a server error) drops the pages, and
//     the next walk reads them again (only then is a walk paid twice). So
//     the checks of an apply's own plans cost one walk per type, whatever
//     N, instead of one after each write. Wait: a write of the type waits
//     for the pages being fetched, and a walk for the writes in flight (no
//     object moves between two pages of one walk); each lasts as long as
//     its requests.
//   - A new family plugs in with its SharedReads in init and its path in
//     TenantClient.routes.
//
// Clients, Grants (SharedReads; clients.go): as ResourceServers above;
// a grant's natural key is its client and API, which the first two finds
// look up directly (GET /client-grants?client_id=&audience=). A client's
// delete removes its grants from what the run knows, an API's delete the
// API's grants (an API the run has not read: the grants' pages are read
// again). GrantsAtStart: the grants as the run found them, for the check
// that a new grant's pair is free; the run's writes leave it as it is, so
// the checks of an apply creating N grants cost at most 2 + P. No wait
// beyond SharedReads'. PlannedGrants: which grant each resource of the
// configuration plans, by client and API; no request.
//
// Actions (ActionReads; actions.go): one GET of each action per run, shared
// by the profiles' checks (many profiles of one action: one read); a write
// to that action makes the next check read it again. Wait: a check waits
// for the read in flight of its action.
//
// Bindings (TriggerBindings; bindings.go):
//   - Read: one GET of a trigger's bindings per run, shared by the
//     refresh, the checks and the data source of that trigger, by the
//     plans of its actions' destroys and by the deletes the tenant
//     refuses because the action is bound (after a 409, once the writes
//     of the trigger's bindings in flight have ended: AfterWrites); a
//     write of an action or of bindings drops it when it ends, unless the
//     tenant refused it (nothing changed). Wait: a reader waits for the
//     read in flight; a refused delete, for the writes of the trigger's
//     bindings in flight (each request, and the whole of a replacement's
//     unbinding: Writing), those that start while it waits included.
//   - Claim, Release, Destroying: Terraform applies the destroy of a bound
//     action before the update of the bindings that reference it; of the
//     two plans, which Terraform runs in no set order (the destroy first
//     with count or for_each), the second acts: a destroy that plans after
//     the bindings drop its action unbinds it itself (DELETE ?force=true),
//     and bindings that plan after destroys of actions they drop are
//     replaced, so that their destroy, which unbinds only those actions,
//     comes first (one PATCH more); with create_before_destroy the create
//     comes first, and the old object's destroy, planned again during the
//     apply, finds the trigger written (Wrote) and sends nothing. A
//     trigger released by one resource's destroy and claimed by another's
//     create fails the plan of the second (a rename without a moved
//     block); released by an object that another object in the state
//     claims (a deposed object), it is that object's: the refresh after
//     the claim marks the other superseded (Refreshed), the claim after
//     its refresh or destroy plans an update (Rewrite). No request, no wait: the outcome
//     follows from the configuration, whatever the order and the
//     -parallelism.
//   - Literal ids: bindings that name an action by its literal id do not
//     depend on it, so Terraform orders nothing between their replacement
//     and the delete: when the destroy plans first, the delete may meet the
//     tenant's refusal (409). It then reads the bindings (above) once: when
//     they no longer bind the action, it deletes it again (one request
//     more); when they still do (the bindings' write not sent yet), it
//     fails saying to apply again, and the next apply completes it.
//
// RolePermissions (role_permissions.go):
//   - Read: one paged read of a role's permissions per run (⌈its
//     permissions/100⌉ requests), shared by the refreshes and checks of
//     every resource on the role; the run's own assignments and removals
//     update it instead of dropping it, so N tenant_role_permission of one
//     role cost one read. A write of an API that may have taken a role's
//     pairs with it (a scope removed, the API deleted: whether the tenant
//     keeps them is not known) marks that role's read out of date for that
//     API: a reader of the role's pairs of that API reads it again (one
//     request), others keep it. Wait: a reader waits for the read in flight.
//   - Holding (the check of scopes removed from an API): the roles' walk
//     and the read of each of the first 100 roles, once per run for every
//     API checked: at most ⌈roles/100⌉ + 100 requests per run. A refusal
//     (a client without read:roles) is said by the first check of the run
//     only.
//   - Change and Converge: one write at a time per role (a role's writes
//     wait for each other), a removal keeps the pairs the run assigned, and
//     an assignment waits for the API writes in flight (Scopes).
//   - ClaimExclusive and ClaimPair: which resources of the configuration
//     manage each role's permissions (no request).
//
// Planned (planned.go): what the configuration's resources plan, for the
// checks that span resources: the scopes each API will define, the
// actions the run deploys, the scopes role permissions need. No request.
//
// Scopes (ScopeWrites; scope_writes.go): an assignment of a permission
// waits for the API creates and updates in flight; when the tenant refuses
// it for a scope the API does not define yet, it waits for the run's next
// API write and tries again, up to Wait (60 s), unless the API's resource
// of this run planned without that scope. Cost: the retried assignment
// and one lookup of the API per refusal.
package conns
