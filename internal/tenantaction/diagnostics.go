package tenantaction

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func inUseDetail(id, name, users string) string {
	return fmt.Sprintf("The action %s (%q) is used by token exchange profiles: %s, so it was not deleted (token exchange for their "+
		"subject token types would fail).\n\n"+
		"Delete the profiles first, or point them at another action; if this apply deletes them, apply again (with the action "+
		"named by reference, tenant_action.<name>.id, one apply does both). To delete it anyway, set skip_profile_check = true "+
		"on it and apply before the destroy.", id, name, users)
}

// inUseByTenantDetail explains the tenant's own refusal (409): it says the
// action is in use, which may be a binding to a trigger's flow as well as a
// profile.
func inUseByTenantDetail(id, name, message string) string {
	return fmt.Sprintf("The tenant refused to delete the action %s (%q) because it is in use: bound to a trigger's flow, or "+
		"used by a token exchange profile. The API said: %s\n\n"+
		"Unbind it from its flow (or delete or repoint the profiles that use it) first, or set force_destroy = true on the "+
		"action, apply, then destroy it to have the tenant delete it anyway.", id, name, message)
}

// waitDetail explains why a create or update did not end with the action
// built (and deployed), and what the next apply does.
func waitDetail(a *mgmt.Action, err error, op string, timeout time.Duration, deploy bool) string {
	var next string
	if op == "create" {
		next = "The action exists in the tenant and is saved in the state, so nothing is left behind. Terraform marks it tainted " +
			"because its create did not finish: the next apply replaces it (deletes it and creates it again). To keep it instead, " +
			"and let the next apply go on from where it is, run:\n  terraform untaint " + TypeName + ".<name>"
	} else {
		next = "The state holds the action as the tenant shows it now, so the next apply goes on from there" +
			map[bool]string{true: ": it waits for the build, then deploys it.", false: ": it waits for the build."}[deploy]
	}
	var failed *mgmt.BuildFailedError
	var we *mgmt.WaitError
	switch {
	case errors.As(err, &failed):
		if op == "update" {
			next = "The state holds the action as the tenant shows it now (the code and dependencies that failed), so nothing is " +
				"lost: the next apply sends the corrected configuration and waits for a new build. Until then, each plan shows " +
				"an update that reports this failure again."
		}
		return buildFailedDetail(failed.Action, next)
	case errors.As(err, &we) && errors.Is(err, context.DeadlineExceeded):
		goal := map[bool]string{true: "built and deployed", false: "built"}[deploy]
		return fmt.Sprintf("Waited %s (timeouts.%s) for the action %s (%q) to be %s; when the time ran out its status was %q "+
			"(all_changes_deployed: %t).\n\n%s\n\nIf builds take this long in the tenant, raise timeouts.%s.",
			timeout, op, a.ID, a.Name, goal, a.Status, a.AllChangesDeployed, next, op)
	case errors.As(err, &we):
		return framework.APIErrorDetail(fmt.Sprintf("Waiting for the action %s (%q), whose status was %q,", a.ID, a.Name, a.Status), we.Err) + "\n\n" + next
	}
	return framework.APIErrorDetail(fmt.Sprintf("Deploying the action %s (%q)", a.ID, a.Name), err) + "\n\n" + next
}

// buildFailedDetail shows all the API gives about a failed build.
func buildFailedDetail(a *mgmt.Action, next string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The tenant could not build the action %s (%q): its status is %q.\n\n", a.ID, a.Name, a.Status)
	if deps := mgmt.DependencyList(a.Dependencies); deps != "" {
		fmt.Fprintf(&b, "Its dependencies: %s. A dependency that cannot be installed (a package or version that is not "+
			"published, or a registry that does not answer) is the usual cause: check each name and version.", deps)
	} else {
		b.WriteString("It has no dependencies, so none of them is the cause.")
	}
	b.WriteString(" The API gives no reason for a failed build (it has no field for a build message or log), so none can be shown here.")
	if v := a.DeployedVersion; v != nil && v.Deployed {
		fmt.Fprintf(&b, " The version deployed before (number %d) is still the one that runs.", v.Number)
	}
	b.WriteString("\n\nCorrect the configuration (usually dependencies), then apply again. ")
	b.WriteString(next)
	return b.String()
}

// boundUnknown explains the tenant's refusal (409) to delete an action of a
// trigger whose bindings could not be read after it: whether they still
// bind it is not known.
func boundUnknown(id, name, trigger, message string, err error) string {
	next := "If this apply's tenant_trigger_actions drops the action, apply again; otherwise unbind it first, or set " +
		"force_destroy = true on the action and apply before the destroy."
	if e, ok := mgmt.AsAPIError(err); ok && e.ErrorCode == "insufficient_scope" {
		next = "Grant read:actions to the provider's client and apply again, or set force_destroy = true on the action and " +
			"apply before the destroy."
	}
	return fmt.Sprintf("The tenant refused to delete the action %s (%q) because it is in use (the API said: %s). "+
		"Whether the trigger %q still binds it is not known: reading its bindings failed (%v).\n\n%s",
		id, name, message, trigger, err, next)
}

// boundRefused explains the tenant's refusal (409) to delete an action
// bound to trigger: what happened, the API's words, what to do.
func boundRefused(id, name, trigger, message string) string {
	return fmt.Sprintf("The tenant refused to delete the action %s (%q), which is bound to the trigger %q (the API said: %s). "+
		"If this apply's tenant_trigger_actions drops it, apply again (with the action named there by reference, "+
		"tenant_action.<name>.id, one apply does both); otherwise unbind it first, or set force_destroy = true on the action "+
		"and apply before the destroy. To replace a bound action, give it lifecycle { create_before_destroy = true }.",
		id, name, trigger, message)
}
