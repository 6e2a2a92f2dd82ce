package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// IncumbentProvider is the provider whose resources a moved block can take
// over: auth0/auth0, from any registry host (Terraform's or OpenTofu's).
const IncumbentProvider = "auth0/auth0"

// IncumbentSchemaVersion is the schema version of every incumbent resource
// type a move accepts (the incumbent's current versions are all 0).
const IncumbentSchemaVersion = 0

// FromIncumbent is the StateMover that takes over the state of the
// incumbent's resource type sourceType: a moved block from it to this
// provider's type. It decodes the incumbent's state (JSON) into S and calls
// move, which sets the target state (and identity) from it without any
// request: the refresh that follows the move reads the tenant. Any other
// source is left to the framework, which refuses it naming the source.
//
// The source provider Terraform reports is the incumbent's, except for the
// second and later instances of one resource (for_each, count) moved by
// blocks of their own: Terraform then names the provider the resource
// already moved to, this one. The state is the incumbent's all the same.
func FromIncumbent[S any](sourceType string, move func(ctx context.Context, src S, resp *resource.MoveStateResponse)) resource.StateMover {
	return resource.StateMover{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		if req.SourceTypeName != sourceType || !isProvider(req.SourceProviderAddress, IncumbentProvider) && !isProvider(req.SourceProviderAddress, ThisProvider) {
			return
		}
		if req.SourceSchemaVersion != IncumbentSchemaVersion {
			resp.Diagnostics.AddError("Unable to move resource state", fmt.Sprintf(
				"The state of this %s is at schema version %d; a move takes version %d, the version of the %s provider's "+
					"releases since 1.0. Apply once with a current release of %s (so that it upgrades the state), then move.",
				sourceType, req.SourceSchemaVersion, IncumbentSchemaVersion, IncumbentProvider, IncumbentProvider))
			return
		}
		if req.SourceRawState == nil || len(req.SourceRawState.JSON) == 0 {
			resp.Diagnostics.AddError("Unable to move resource state", fmt.Sprintf(
				"The state of this %s is not in JSON form. Apply once with a current release of %s, then move.", sourceType, IncumbentProvider))
			return
		}
		var src S
		if err := json.Unmarshal(req.SourceRawState.JSON, &src); err != nil {
			resp.Diagnostics.AddError("Unable to move resource state", fmt.Sprintf(
				"The state of this %s could not be read: %v. Check that it was written by %s 1.x.", sourceType, err, IncumbentProvider))
			return
		}
		move(ctx, src, resp)
	}}
}

// ThisProvider is this provider's namespace/type.
const ThisProvider = "tenant-iac/tenant"

// isProvider reports whether address (host/namespace/type) names the
// provider source ("namespace/type") on any registry host.
func isProvider(address, source string) bool {
	parts := strings.Split(address, "/")
	return len(parts) == 3 && parts[1]+"/"+parts[2] == source
}

// NonEmpty is s, or nil for "": the incumbent stores unset strings as "".
func NonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
