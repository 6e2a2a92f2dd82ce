package validate

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// ID accepts a value that names one object in a request path: not empty, and
// not "." or "..". The client percent-escapes every other character, but a
// server resolves a dot segment to another route.
func ID() validator.String { return id{} }

type id struct{}

func (id) Description(context.Context) string {
	return `value must name one object: not empty, and not "." or ".."`
}
func (v id) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v id) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := IDProblem(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid attribute value",
			fmt.Sprintf("Attribute %s %s, got: %q", req.Path, msg, req.ConfigValue.ValueString()))
	}
}

// IDProblem says what is wrong with s as an id or import ID ("" when nothing is).
func IDProblem(s string) string {
	switch {
	case s == "":
		return "must not be empty"
	case s == "." || s == "..":
		return `must not be "." or ".." (a server would resolve it to another route)`
	}
	return ""
}
