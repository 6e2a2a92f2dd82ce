package role

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

type permissionsExclusiveModel struct {
	ID          types.String `tfsdk:"id"`
	RoleID      types.String `tfsdk:"role_id"`
	Permissions types.Map    `tfsdk:"permissions"`
}

// permissionNamesType is the type of one API's permission names: a set to
// Terraform (the provider's server says so), a list whose order means
// nothing to the framework, so that a role's thousand names on one API
// plan in linear time (see framework.UnorderedListType).
var permissionNamesType = framework.NewUnorderedListType(types.StringType)

// pairs returns the permissions of the model as API pairs, sorted, and
// whether all of them are known: at plan time the names of an API, or a
// name, may be unknown (they come from another resource); at apply time
// they never are.
func (m permissionsExclusiveModel) pairs() ([]mgmt.Permission, bool) {
	if !flex.IsSet(m.Permissions) {
		return nil, false
	}
	var out []mgmt.Permission
	known := true
	for ident, v := range m.Permissions.Elements() {
		names, ok := v.(framework.UnorderedList)
		if !ok || !flex.IsSet(names) {
			known = false
			continue
		}
		for _, n := range names.Elements() {
			name, ok := n.(types.String)
			if !ok || !flex.IsSet(name) {
				known = false
				continue
			}
			out = append(out, mgmt.Permission{ResourceServerIdentifier: ident, PermissionName: name.ValueString()})
		}
	}
	mgmt.SortPermissions(out)
	return out, known
}

// claimKey names the permissions of the model for ClaimExclusive: the same
// pairs, in any order, give the same key.
func (m permissionsExclusiveModel) claimKey() string {
	pairs, known := m.pairs()
	if !known {
		return m.Permissions.String()
	}
	return fmt.Sprint(pairs)
}

// appliedPairs is pairs for the apply, where every pair is known: one that
// is not is reported as the bug it is.
func (m permissionsExclusiveModel) appliedPairs(diags *diag.Diagnostics) []mgmt.Permission {
	pairs, known := m.pairs()
	if !known {
		diags.AddAttributeError(path.Root("permissions"), "Unable to read the permissions",
			"A permission of the configuration is not known at apply time. This is a bug in the provider; please report it.")
	}
	return pairs
}

// fromAPI sets the permissions from what the API lists.
func (m *permissionsExclusiveModel) fromAPI(roleID string, perms []mgmt.RolePermission) diag.Diagnostics {
	return m.fromPairs(roleID, mgmt.Pairs(perms))
}

// fromPairs sets the role and its permissions, grouped by API.
func (m *permissionsExclusiveModel) fromPairs(roleID string, pairs []mgmt.Permission) diag.Diagnostics {
	m.ID = types.StringValue(roleID)
	m.RoleID = types.StringValue(roleID)
	byAPI := map[string][]attr.Value{}
	for _, p := range pairs {
		byAPI[p.ResourceServerIdentifier] = append(byAPI[p.ResourceServerIdentifier], types.StringValue(p.PermissionName))
	}
	var diags diag.Diagnostics
	elems := make(map[string]attr.Value, len(byAPI))
	for ident, names := range byAPI {
		list, d := types.ListValue(types.StringType, names)
		diags.Append(d...)
		elems[ident] = framework.UnorderedListOf(list)
	}
	perms, d := types.MapValue(permissionNamesType, elems)
	m.Permissions = perms
	return append(diags, d...)
}

// roleModel is a tenant_role resource or data source.
type roleModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
}

// toCreate is the POST /roles body: every planned value. The default
// description, "", is the API's "none" and is left out of the body (the
// field is omitempty), as a role created without one (reference §3).
func (m roleModel) toCreate() mgmt.Role {
	return mgmt.Role{
		Name:        m.Name.ValueString(),
		Description: m.Description.ValueString(),
	}
}

// toUpdate is the PATCH body: only what differs from the state. A removed
// description is planned as "" (the schema default) and sent as "", which is
// what GET shows for a role without one (reference §3). Assumption (the
// reference is silent): the API accepts "" for description; the emulator
// clears it with "" or null alike.
func (m roleModel) toUpdate(state roleModel) mgmt.RoleUpdate {
	var u mgmt.RoleUpdate
	if !m.Name.IsUnknown() && !m.Name.Equal(state.Name) {
		u.Name = mgmt.Set(m.Name.ValueString())
	}
	if !m.Description.IsUnknown() && !m.Description.Equal(state.Description) {
		u.Description = mgmt.Set(m.Description.ValueString())
	}
	return u
}

// fromAPI sets the model from the API's role. A description the answer
// omits (the POST reply does when none was sent, reference §3) is "", as a
// later GET shows it.
func (m *roleModel) fromAPI(r *mgmt.Role) {
	m.ID = types.StringValue(r.ID)
	m.Name = types.StringValue(r.Name)
	m.Description = types.StringValue(r.Description)
}

// permissionModel is a tenant_role_permission.
type permissionModel struct {
	ID                       types.String `tfsdk:"id"`
	RoleID                   types.String `tfsdk:"role_id"`
	ResourceServerIdentifier types.String `tfsdk:"resource_server_identifier"`
	PermissionName           types.String `tfsdk:"permission_name"`
}

// pair is the permission the model names.
func (m permissionModel) pair() mgmt.Permission {
	return mgmt.Permission{
		ResourceServerIdentifier: m.ResourceServerIdentifier.ValueString(),
		PermissionName:           m.PermissionName.ValueString(),
	}
}

// fromAPI sets the model from the role's id and a pair the API holds.
func (m *permissionModel) fromAPI(roleID string, p mgmt.Permission) {
	m.ID = types.StringValue(pairID(roleID, p))
	m.RoleID = types.StringValue(roleID)
	m.ResourceServerIdentifier = types.StringValue(p.ResourceServerIdentifier)
	m.PermissionName = types.StringValue(p.PermissionName)
}

// pairID is a tenant_role_permission's id and import ID:
// <role_id>::<resource_server_identifier>::<permission_name>.
func pairID(roleID string, p mgmt.Permission) string {
	return strings.Join([]string{roleID, p.ResourceServerIdentifier, p.PermissionName}, framework.ImportSep)
}

// parsePairID splits an id made by pairID. Identifiers are URIs that may
// hold "::" themselves (urn:a::b, https://[::1]/), so only the identifier
// may; a permission name holding "::" cannot be imported. problem says what
// is wrong ("" when nothing is).
func parsePairID(id string) (roleID string, p mgmt.Permission, problem string) {
	parts, problem := framework.ImportIDParts(id, 1, "role id", "resource server identifier", "permission name")
	if problem != "" {
		return "", p, problem
	}
	roleID, p = parts[0], mgmt.Permission{ResourceServerIdentifier: parts[1], PermissionName: parts[2]}
	if !validate.RoleIDPattern.MatchString(roleID) {
		return "", p, "has a role id that is not one (rol_ followed by letters and digits)"
	}
	return roleID, p, ""
}

// identityProblem says what is wrong with the parts of an identity ("" when
// nothing is): each must name exactly what the attribute of its name holds.
func identityProblem(roleID string, p mgmt.Permission) string {
	switch {
	case !validate.RoleIDPattern.MatchString(roleID):
		return fmt.Sprintf("has role_id %q, which is not a role id (rol_ followed by letters and digits)", roleID)
	case p.ResourceServerIdentifier == "" || validate.IDProblem(p.ResourceServerIdentifier) != "":
		return fmt.Sprintf("has resource_server_identifier %q, which cannot name an API", p.ResourceServerIdentifier)
	case p.PermissionName == "" || strings.ContainsAny(p.PermissionName, " \t\n"):
		return fmt.Sprintf("has permission_name %q, which cannot name a permission", p.PermissionName)
	}
	return ""
}

// hasPair returns the pair as perms holds it, if it does.
func hasPair(perms []mgmt.RolePermission, want mgmt.Permission) (mgmt.Permission, bool) {
	for _, p := range perms {
		if p.Permission == want {
			return p.Permission, true
		}
	}
	return mgmt.Permission{}, false
}
