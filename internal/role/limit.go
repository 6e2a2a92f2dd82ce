package role

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// permissionsAtMost refuses more than limit permissions in all APIs of the
// map together: a role holds at most that many, whatever APIs they belong to.
func permissionsAtMost(limit int) validator.Map { return atMost{limit} }

type atMost struct{ limit int }

func (v atMost) Description(context.Context) string {
	return fmt.Sprintf("at most %d permissions in all APIs together", v.limit)
}

func (v atMost) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v atMost) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if !flex.IsSet(req.ConfigValue) {
		return
	}
	n := 0
	for _, e := range req.ConfigValue.Elements() {
		names, ok := e.(basetypes.ListValuable)
		if !ok || !flex.IsSet(e) {
			continue
		}
		l, diags := names.ToListValue(ctx)
		if diags.HasError() {
			continue
		}
		n += len(l.Elements())
	}
	if n > v.limit {
		resp.Diagnostics.AddAttributeError(req.Path, "Too many permissions", fmt.Sprintf(
			"Attribute %s holds %d permissions in all; a role holds at most %d (the platform's limit per role). "+
				"Split them over several roles.", req.Path, n, v.limit))
	}
}

// permissionNames checks one API's names, as the framework's set
// validators would (the attribute is a set to Terraform, a list to the
// framework): between min and max names, none null, each a scope value.
// An element's problem is reported at the element's value, as Terraform
// addresses a set's elements.
func permissionNames(min, max int) validator.List { return namesValidator{min, max} }

type namesValidator struct{ min, max int }

func (v namesValidator) Description(context.Context) string {
	return fmt.Sprintf("set must contain at least %d elements and at most %d elements, each a scope value", v.min, v.max)
}

func (v namesValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v namesValidator) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if !flex.IsSet(req.ConfigValue) {
		return
	}
	elems := req.ConfigValue.Elements()
	if n := len(elems); n < v.min || n > v.max {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value", fmt.Sprintf(
			"Attribute %s set must contain at least %d elements and at most %d elements, got: %d", req.Path, v.min, v.max, n))
		return
	}
	for _, e := range elems {
		name, ok := e.(basetypes.StringValue)
		switch {
		case !ok || e.IsUnknown():
			continue
		case e.IsNull():
			resp.Diagnostics.AddAttributeError(req.Path, "Null Set Value", "This attribute contains a null value.")
			continue
		}
		for _, check := range validate.ScopeValue() {
			sr := validator.StringRequest{Path: req.Path.AtSetValue(name), PathExpression: req.PathExpression.AtSetValue(name),
				ConfigValue: name, Config: req.Config}
			var out validator.StringResponse
			check.ValidateString(ctx, sr, &out)
			resp.Diagnostics.Append(out.Diagnostics...)
		}
	}
}
