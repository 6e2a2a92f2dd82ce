package resourceserver

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

// rolesChecked bounds how many roles a plan reads to say which hold a scope
// the plan removes (one read of each role's permissions).
const rolesChecked = 100

// ModifyPlan checks, at plan time, what the tenant would refuse at apply or
// what the apply would do unasked, as far as the values are known:
//
//   - an identifier of one of the tenant's system APIs (never managed);
//   - on create, an API that already holds the identifier (the import
//     command);
//   - the scopes this run's role permissions assign that the API will not
//     define (a warning; the API's scopes are recorded for the permissions
//     that plan later);
//   - a scope removed from the API that roles hold as a permission (a
//     warning naming them).
//
// A check whose read the tenant refuses (a client without the read scope)
// is skipped with a warning; a value unknown until apply is not checked.
func (r *serverResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Tenant.Configured() {
		return
	}
	var plan resourceModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || plan.Identifier.IsUnknown() {
		return
	}
	ident := plan.Identifier.ValueString()
	if ep := r.Tenant.API.Endpoint(); isSystemIdentifier(ep, ident) {
		resp.Diagnostics.AddAttributeError(path.Root("identifier"), "Unable to manage a system API", systemAPIDetail(ep, ident))
		return
	}
	own := framework.ManagedID(ctx, req, resp)
	var state resourceModel
	creating := req.State.Raw.IsNull()
	if creating {
		found, err := r.Tenant.ResourceServers.Find(ctx, ident)
		switch {
		case err != nil:
			framework.CheckSkipped(&resp.Diagnostics, path.Root("identifier"), fmt.Sprintf("whether an API with identifier %q exists", ident), err)
		case found != nil && found.ID != own:
			creation(ident).Taken(framework.Found{ID: found.ID}, &resp.Diagnostics)
			return
		}
	} else {
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
			return
		}
	}
	if plan.Scopes.IsUnknown() {
		r.Tenant.Planned.ScopesUnknown(ident)
		return
	}
	planned := plan.scopeValues()
	// A warning: whether the tenant refuses a permission whose scope the
	// API does not define is not known (reference §3, §8).
	for scope, roles := range r.Tenant.Planned.DefineScopes(ident, planned) {
		resp.Diagnostics.AddAttributeWarning(path.Root("scopes"), "Scope not defined", fmt.Sprintf(
			"Role permissions of this configuration assign %q of the API %q to role(s) %s, but the API's scopes here do not "+
				"include it, so the tenant may refuse to assign it.\n\nAdd %q to scopes, or remove the permission.",
			scope, ident, strings.Join(roles, ", "), scope))
	}
	if creating || state.Scopes.IsNull() {
		return
	}
	if removed := minus(state.scopeValues(), planned); len(removed) > 0 {
		r.warnRolesHolding(ctx, ident, removed, &resp.Diagnostics)
	}
}

// scopeValues are the scope values of the model, sorted.
func (m serverModel) scopeValues() []string {
	out := make([]string, 0, len(m.Scopes.Elements()))
	for v := range m.Scopes.Elements() {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func minus(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, v := range b {
		in[v] = true
	}
	var out []string
	for _, v := range a {
		if !in[v] {
			out = append(out, v)
		}
	}
	return out
}

// warnRolesHolding warns when roles hold, as permissions, scopes the plan
// removes from the API: once the API no longer defines a scope, those
// roles' users no longer get it. It asks the run's shared reads of the
// tenant's roles and of their permissions (up to rolesChecked roles), read
// once per run for every API checked; a read the tenant refuses is said
// once per run.
func (r *serverResource) warnRolesHolding(ctx context.Context, ident string, removed []string, diags *diag.Diagnostics) {
	found, total, err := r.Tenant.RolePermissions.Holding(ctx, r.Tenant.Roles, ident, removed, rolesChecked)
	switch {
	case errors.Is(err, conns.ErrReported):
		return
	case err != nil:
		framework.CheckSkipped(diags, path.Root("scopes"), "which roles hold the scopes the plans of this run remove from APIs", err)
		return
	}
	holders := map[string][]string{}
	for scope, roles := range found {
		for _, role := range roles {
			holders[scope] = append(holders[scope], fmt.Sprintf("%s (%s)", role.Name, role.ID))
		}
	}
	if len(holders) == 0 {
		return
	}
	var lines []string
	for _, s := range removed {
		if h := holders[s]; len(h) > 0 {
			lines = append(lines, fmt.Sprintf("  %s: held by %s", s, strings.Join(h, ", ")))
		}
	}
	more := ""
	if total > rolesChecked {
		more = fmt.Sprintf("\n\nOnly the first %d of the tenant's %d roles were checked.", rolesChecked, total)
	}
	diags.AddAttributeWarning(path.Root("scopes"), "Scopes removed that roles hold", fmt.Sprintf(
		"This plan removes scopes of the API %q that roles hold as permissions:\n%s\n\nOnce the API no longer defines a "+
			"scope, those roles no longer grant it. If this plan also removes those permissions from the roles "+
			"(tenant_role_permissions, tenant_role_permission), nothing else changes; otherwise remove them as well, "+
			"or keep the scopes.%s", ident, strings.Join(lines, "\n"), more))
}
