package role

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
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
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	n := 0
	for _, e := range req.ConfigValue.Elements() {
		set, ok := e.(basetypes.SetValuable)
		if !ok || e.IsUnknown() || e.IsNull() {
			continue
		}
		s, diags := set.ToSetValue(ctx)
		if diags.HasError() {
			continue
		}
		n += len(s.Elements())
	}
	if n > v.limit {
		resp.Diagnostics.AddAttributeError(req.Path, "Too many permissions", fmt.Sprintf(
			"Attribute %s holds %d permissions in all; a role holds at most %d (the platform's limit per role). "+
				"Split them over several roles.", req.Path, n, v.limit))
	}
}
