package role

import (
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestWriteErrorDetail_undefinedScope: the refusal of a scope its API does
// not define says, in at most three sentences, what happened with the role's
// id, the API's words, and one thing to do.
func TestWriteErrorDetail_undefinedScope(t *testing.T) {
	err := &mgmt.APIError{Method: "POST", Path: "/api/v2/roles/rol_1/permissions", StatusCode: 400, Err: "Bad Request",
		Message: "Permission 'write:a' is not defined on resource server 'https://a'.", ErrorCode: "invalid_body"}
	detail := writeErrorDetail("rol_1", "Add the scope to the API's scopes, or correct the permission.", err)
	for _, want := range []string{`"rol_1"`, "Permission 'write:a' is not defined on resource server 'https://a'", "Add the scope"} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, detail)
		}
	}
	if n := strings.Count(strings.TrimSpace(detail), ". ") + strings.Count(detail, ".\n") + 1; n > 3 {
		t.Errorf("detail has %d sentences, want at most 3:\n%s", n, detail)
	}
}
