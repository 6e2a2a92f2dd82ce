package role

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// writeErrorDetail explains a refused assignment; check says what to do
// with the arguments that name the pair in the resource at hand.
func writeErrorDetail(roleID, check string, err error) string {
	detail := framework.APIErrorDetail(fmt.Sprintf("Assigning permissions to role %q", roleID), err)
	switch e, _ := mgmt.AsAPIError(err); {
	case e == nil:
	case e.StatusCode == 404 && e.ErrorCode != "inexistent_resource_server" && !strings.Contains(e.Message, "resource server"):
		detail = fmt.Sprintf("The role %q does not exist. Check role_id.\n\n%s", roleID, detail)
	case e.StatusCode == 404 || e.StatusCode == 400:
		words := fmt.Sprintf("%d %s: %s", e.StatusCode, e.Err, e.Message)
		if e.ErrorCode != "" {
			words += " (" + e.ErrorCode + ")"
		}
		detail = fmt.Sprintf("Assigning permissions to role %q failed: a permission names a scope its API does not define, "+
			"or an API the tenant does not hold.\n\nThe API answered %s\n\n%s", roleID, words, check)
	}
	return detail
}

// listPairs writes pairs for a diagnostic, the first 20 of them.
func listPairs(pairs []mgmt.Permission) string {
	const shown = 20
	parts := make([]string, 0, min(len(pairs), shown))
	for i, p := range pairs {
		if i == shown {
			break
		}
		parts = append(parts, fmt.Sprintf("%s on %s", p.PermissionName, p.ResourceServerIdentifier))
	}
	out := strings.Join(parts, ", ")
	if len(pairs) > shown {
		out += fmt.Sprintf(" and %d more", len(pairs)-shown)
	}
	return out
}

// without returns the pairs of all that are not in some.
func without(all, some []mgmt.Permission) []mgmt.Permission {
	drop := make(map[mgmt.Permission]bool, len(some))
	for _, p := range some {
		drop[p] = true
	}
	var out []mgmt.Permission
	for _, p := range all {
		if !drop[p] {
			out = append(out, p)
		}
	}
	return out
}

func mixedUseDetail(roleID string) string {
	return fmt.Sprintf("The permissions of role %[1]q are managed by both %[2]s and %[3]s in this configuration. %[2]s is "+
		"authoritative: its next apply removes every pair it does not list, including the pairs of %[3]s, which the apply "+
		"after assigns again, so the plan never settles.\n\n"+
		"Manage this role's permissions with one of them: list every pair in %[2]s and remove the %[3]s resources of the "+
		"role, or replace %[2]s with one %[3]s per pair.", roleID, PermissionsExclusiveTypeName, PermissionTypeName)
}

func duplicateExclusiveDetail(roleID string, instances int) string {
	return fmt.Sprintf("%d %s resources in this configuration manage the permissions of role %q, with different pairs. "+
		"Each is authoritative: each apply would remove the pairs the other lists, and the plan would never settle.\n\n"+
		"Keep one %s per role and list every pair of the role in it.", instances, PermissionsExclusiveTypeName, roleID, PermissionsExclusiveTypeName)
}

// removalDetail is APIErrorDetail for a removal of pairs, with what to do
// when the role still holds pairs after a 404 about something else than
// the role (most likely an API deleted from the tenant).
func removalDetail(tried string, err error) string {
	detail := framework.APIErrorDetail(tried, err)
	var still *mgmt.StillAssignedError
	if errors.As(err, &still) {
		detail += fmt.Sprintf("\n\nThe role still holds %s. The 404 names something other than the role: most likely an "+
			"API of these pairs no longer exists in the tenant, which may still list its pairs on the role. Remove them in "+
			"the tenant, or take this resource out of the state (terraform state rm, or a removed block), then apply again.",
			listPairs(still.Held))
	}
	return detail
}
