// Package framework is the glue between terraform-plugin-framework and the
// mgmt client that every resource, data source and action shares.
package framework

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// Tenant returns the TenantClient the provider handed out. ProviderData is
// nil while the provider is not configured (validation, a domain unknown at
// plan time); Tenant is then one whose requests fail saying so.
func Tenant(providerData any, diags *diag.Diagnostics) *conns.TenantClient {
	if providerData == nil {
		return conns.Unconfigured()
	}
	t, ok := providerData.(*conns.TenantClient)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *conns.TenantClient, got %T. This is a bug in the provider; please report it.", providerData))
		return conns.Unconfigured()
	}
	return t
}

// Gone ends a Read whose object the tenant no longer holds (a 404): a
// warning that says so and what the next apply does, and the resource out
// of the state.
func Gone(ctx context.Context, resp *resource.ReadResponse, typeName, id string) {
	resp.Diagnostics.Append(removedFromState(typeName, id))
	resp.State.RemoveResource(ctx)
}

func removedFromState(typeName, id string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Resource not found, removed from state", fmt.Sprintf(
		"The %s %q no longer exists in the tenant (it was deleted outside Terraform), so it was removed from the state.\n\n"+
			"The next apply creates it again; remove it from the configuration if it should stay deleted.", typeName, id))
}

// APIErrorDetail explains an API error: what was tried, what the API said,
// and what to do about it.
func APIErrorDetail(tried string, err error) string {
	var b strings.Builder
	b.WriteString(tried)
	b.WriteString(" failed.\n\n")
	var te *mgmt.TokenError
	if errors.As(err, &te) {
		b.WriteString(te.Error())
		return b.String()
	}
	e, ok := mgmt.AsAPIError(err)
	if !ok {
		b.WriteString(err.Error())
		return b.String()
	}
	fmt.Fprintf(&b, "The API answered %d %s: %s", e.StatusCode, e.Err, e.Message)
	if e.ErrorCode != "" {
		fmt.Fprintf(&b, " (%s)", e.ErrorCode)
	}
	b.WriteString("\n\n")
	b.WriteString(hint(e))
	return b.String()
}

func hint(e *mgmt.APIError) string {
	switch {
	case e.StatusCode == http.StatusUnauthorized:
		return "The access token was refused. Check the provider's credentials (client_id/client_secret or api_token, TENANT_* variables) and that audience is the tenant's Management API identifier."
	case e.ErrorCode == "insufficient_scope" || strings.HasPrefix(e.Message, "Insufficient scope"):
		return "The credentials lack a scope this operation needs. Grant the scope named above to the client (its client grant for the Management API), or use a token that has it."
	case strings.Contains(e.Message, "limit of entities"):
		return "The tenant holds as many objects of this type as it may. Delete unused ones, or ask for a higher limit, then apply again."
	case e.StatusCode == http.StatusForbidden:
		return "The tenant refused the operation. Check the client's grants and the tenant's plan."
	case e.StatusCode == http.StatusTooManyRequests:
		return "The tenant's rate limit was still exhausted after every retry. Apply again later, lower -parallelism, or set max_requests_per_second on the provider."
	case e.StatusCode >= 500:
		return "The tenant had a server error that persisted through the retries. Apply again; Terraform will continue where it stopped."
	case e.StatusCode == http.StatusBadRequest:
		return "The API refused the request's content. Correct the configuration value named in the message."
	default:
		return "Correct the cause named in the message and apply again."
	}
}

// CheckImportID refuses an import ID that cannot name an object (empty, a dot
// segment) before any request, with what to use instead.
func CheckImportID(typeName, id, accepted string) diag.Diagnostics {
	var diags diag.Diagnostics
	if msg := validate.IDProblem(id); msg != "" {
		diags.AddError("Invalid import ID", fmt.Sprintf("The import ID %q for %s %s. Use %s.", id, typeName, msg, accepted))
	}
	return diags
}

// CheckSkipped warns, at plan time, that a check of what the tenant would
// refuse could not read what it needs (for example a client without the
// read scope). The plan goes on: a check never fails a plan for a read.
func CheckSkipped(diags *diag.Diagnostics, attr path.Path, what string, err error) {
	diags.AddAttributeWarning(attr, "Plan-time check skipped", APIErrorDetail("Checking "+what, err)+
		"\n\nThe plan goes on without this check; the apply will meet the tenant's own answer.")
}
