// Package validate holds the validators that terraform-plugin-framework-validators lacks.
package validate

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// AbsoluteURI accepts an absolute URI (a scheme, then a scheme-specific
// part), such as https://example.com/token or urn:example:token.
func AbsoluteURI() validator.String { return absoluteURI{} }

type absoluteURI struct{}

func (absoluteURI) Description(context.Context) string {
	return "value must be an absolute URI (scheme:rest, e.g. https://example.com/token or urn:example:token)"
}
func (v absoluteURI) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v absoluteURI) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || (u.Opaque == "" && u.Host == "" && u.Path == "") || strings.ContainsAny(s, " \t\n") {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid attribute value",
			fmt.Sprintf("Attribute %s %s, got: %q", req.Path, v.Description(ctx), s))
	}
}

// NoPrefix refuses values that start with any of the prefixes (compared
// case-insensitively).
func NoPrefix(why string, prefixes ...string) validator.String {
	return noPrefix{why: why, prefixes: prefixes}
}

type noPrefix struct {
	why      string
	prefixes []string
}

func (v noPrefix) Description(context.Context) string {
	return fmt.Sprintf("value must not start with %s (%s)", strings.Join(v.prefixes, ", "), v.why)
}
func (v noPrefix) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v noPrefix) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := strings.ToLower(req.ConfigValue.ValueString())
	for _, p := range v.prefixes {
		if strings.HasPrefix(s, strings.ToLower(p)) {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid attribute value",
				fmt.Sprintf("Attribute %s must not start with the reserved prefix %q (%s), got: %q", req.Path, p, v.why, req.ConfigValue.ValueString()))
			return
		}
	}
}

// Domain accepts what the provider's domain accepts (see mgmt.ParseDomain).
func Domain() validator.String { return domain{} }

type domain struct{}

func (domain) Description(context.Context) string {
	return "value must be a host, host:port or https URL (http:// only for loopback hosts)"
}
func (v domain) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (domain) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := mgmt.ParseDomain(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid tenant domain", fmt.Sprintf("Attribute %s: %s.", req.Path, err))
	}
}
