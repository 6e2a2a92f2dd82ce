package role

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// checkPairs checks, at plan time, that the APIs of the pairs a plan
// assigns define their scopes, and warns of those that do not. An API whose
// resource this run has planned is held to the scopes it will define.
// Otherwise the pair is recorded for that resource, should it plan later,
// and the tenant is read (one shared lookup per API): a resource of this
// run that names the API by its literal identifier may still add the scope
// (the apply orders the two). Warnings only: whether the tenant refuses a
// permission whose scope the API does not define is not known (reference
// §3, §8); the apply meets its answer.
func checkPairs(ctx context.Context, tenant *conns.TenantClient, roleID string, pairs []mgmt.Permission, attr path.Path, diags *diag.Diagnostics) {
	byAPI := mgmt.NamesByAPI(pairs)
	apis := make([]string, 0, len(byAPI))
	for ident := range byAPI {
		apis = append(apis, ident)
	}
	sort.Strings(apis)
	for _, ident := range apis {
		names := byAPI[ident]
		if planned, ok := tenant.Planned.Scopes(ident); ok {
			// nil: the API's scopes are unknown until apply; not checked.
			if missing := notIn(names, planned); planned != nil && len(missing) > 0 {
				diags.AddAttributeWarning(attr, "Scope not defined", fmt.Sprintf(
					"The API %q of this configuration will not define %s, so the tenant may refuse to assign it to role %q.\n\n"+
						"Add it to that API's scopes, or remove the permission.", ident, quoteAll(missing), roleID))
			}
			continue
		}
		for _, name := range names {
			tenant.Planned.NeedScope(ident, name, roleID)
		}
		api, err := tenant.ResourceServers.Find(ctx, ident)
		switch {
		case err != nil:
			framework.CheckSkipped(diags, attr, fmt.Sprintf("that the API %q defines the permissions", ident), err)
		case api == nil:
			diags.AddAttributeWarning(attr, "API not found", fmt.Sprintf(
				"The tenant holds no API with identifier %q, so assigning %s to role %q fails at apply unless this "+
					"configuration creates that API first. Reference it (tenant_resource_server.<name>.identifier) so that "+
					"Terraform creates it first, or correct the identifier.", ident, quoteAll(names), roleID))
		default:
			if missing := notIn(names, api.ScopeValues()); len(missing) > 0 {
				diags.AddAttributeWarning(attr, "Scope not defined", fmt.Sprintf(
					"The API %q does not define %s in the tenant now, so the tenant may refuse to assign it to role %q unless "+
						"this configuration adds it to the API's scopes (the apply then assigns it after the scope is written). "+
						"Otherwise correct the permission name.", ident, quoteAll(missing), roleID))
			}
		}
	}
}

// checkRole refuses pairs for a role the tenant does not hold (ok false);
// it returns the permissions the role holds, read once per run (the read is
// shared), or none when the read is refused (the check is then skipped).
func checkRole(ctx context.Context, tenant *conns.TenantClient, roleID string, diags *diag.Diagnostics) (held []mgmt.RolePermission, ok bool) {
	held, err := tenant.RolePermissions.Read(ctx, roleID)
	switch {
	case mgmt.IsNotFound(err):
		diags.AddAttributeError(path.Root("role_id"), "Unable to assign role permissions", fmt.Sprintf(
			"No role with id %q exists in the tenant, so the apply would fail to assign its permissions.\n\n"+
				"Reference the role of this configuration (role_id = tenant_role.<name>.id), or correct the id.", roleID))
		return nil, false
	case err != nil:
		framework.CheckSkipped(diags, path.Root("role_id"), fmt.Sprintf("that the role %q exists", roleID), err)
		return nil, true
	}
	return held, true
}

func notIn(names []string, set map[string]bool) []string {
	var out []string
	for _, n := range names {
		if !set[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
