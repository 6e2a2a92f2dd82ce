package mgmt

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// subsystem is the terraform-plugin-log subsystem of every client log line
// (@module=tenant.mgmt). Terraform shows provider logs at TF_LOG_PROVIDER's
// level: DEBUG shows every request, TRACE its body.
const subsystem = "mgmt"

// secretKeys are JSON keys whose values never reach a log line. (A PEM is a
// public key where the API takes one, but a private key pasted by mistake
// must not be logged either.)
var secretKeys = regexp.MustCompile(`("(?:client_secret|access_token|id_token|refresh_token|api_token|signing_secret|auth_token|password|secret|pem)"\s*:\s*)"(?:[^"\\]|\\.)*"`)

// redact masks the values of secretKeys in a JSON body before it is logged.
func redact(body []byte) string {
	return secretKeys.ReplaceAllString(string(body), `$1"***"`)
}

// logContext is the log context of one request: the client's own secrets
// and the request's (an action's secret values, masked as values wherever
// they appear, whatever the JSON around them) never reach a log line.
func (c *Client) logContext(ctx context.Context, secrets ...string) context.Context {
	ctx = tflog.NewSubsystem(ctx, subsystem)
	ctx = tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, subsystem, "authorization", "Authorization")
	for _, s := range append(secrets, c.secrets...) {
		if s != "" {
			ctx = tflog.SubsystemMaskAllFieldValuesStrings(ctx, subsystem, s)
			ctx = tflog.SubsystemMaskMessageStrings(ctx, subsystem, s)
		}
	}
	return ctx
}
