package mgmt

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// subsystem is the terraform-plugin-log subsystem of every client log line
// (TF_LOG_PROVIDER_TENANT_MGMT sets its level).
const subsystem = "mgmt"

// secretKeys are JSON keys whose values never reach a log line.
var secretKeys = regexp.MustCompile(`("(?:client_secret|access_token|id_token|refresh_token|api_token|signing_secret|auth_token|password|secret)"\s*:\s*)"(?:[^"\\]|\\.)*"`)

// secretItems are the {"name", "value"} items of an action's secrets list
// (reference §2): the value of each is masked, its name kept.
var secretItems = regexp.MustCompile(`("name"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"value"\s*:\s*)"(?:[^"\\]|\\.)*"`)

// redact masks secret values in a JSON body before it is logged.
func redact(body []byte) string {
	s := secretKeys.ReplaceAllString(string(body), `$1"***"`)
	return secretItems.ReplaceAllString(s, `$1"***"`)
}

func (c *Client) logContext(ctx context.Context) context.Context {
	ctx = tflog.NewSubsystem(ctx, subsystem)
	ctx = tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, subsystem, "authorization", "Authorization")
	for _, s := range c.secrets {
		if s != "" {
			ctx = tflog.SubsystemMaskAllFieldValuesStrings(ctx, subsystem, s)
			ctx = tflog.SubsystemMaskMessageStrings(ctx, subsystem, s)
		}
	}
	return ctx
}
