package framework

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// WriteOnly names a write-only attribute (Value, e.g. "signing_secret_wo")
// whose companion Value+"_version" says when to send it: Terraform keeps
// no write-only value, so it cannot see the value change, only the version.
// Hint is what to write when the version is set without the value (an
// import or generated configuration leaves that); empty for the plain
// advice.
type WriteOnly struct {
	Value string
	Hint  string
}

// WriteOnlyPairs refuses, before any request, a write-only value without its
// version and a version without its value. Without the version such a value
// would be sent once and never again, and the tenant's copy could not be
// told from the configuration's.
func WriteOnlyPairs(pairs ...WriteOnly) resource.ConfigValidator { return writeOnlyPairs(pairs) }

type writeOnlyPairs []WriteOnly

func (v writeOnlyPairs) Description(context.Context) string {
	return "each write-only value is set together with its version"
}

func (v writeOnlyPairs) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v writeOnlyPairs) ValidateResource(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	for _, p := range v {
		version := p.Value + "_version"
		_, valueSet := configured(req.Config.Raw, p.Value)
		ver, versionSet := configured(req.Config.Raw, version)
		switch {
		case valueSet && !versionSet:
			resp.Diagnostics.AddAttributeError(path.Root(version), "Missing "+version, fmt.Sprintf(
				"Attribute %q must be specified when %q is specified. Terraform keeps no write-only value, so it sends %s "+
					"only when %s changes: set %s = 1, and change it whenever the value should be sent again.",
				version, p.Value, p.Value, version, version))
		case versionSet && !valueSet:
			hint := p.Hint
			if hint == "" {
				hint = fmt.Sprintf("Add %s, or remove %s.", p.Value, version)
			}
			resp.Diagnostics.AddAttributeError(path.Root(p.Value), "Missing "+p.Value, fmt.Sprintf(
				"Attribute %q must be specified when %q is specified (it is %s). %s", p.Value, version, show(ver), hint))
		}
	}
}

// configured returns the configuration's value of the top-level attribute
// name and whether it is set (not null; an unknown value is set).
func configured(config tftypes.Value, name string) (tftypes.Value, bool) {
	got, _, err := tftypes.WalkAttributePath(config, tftypes.NewAttributePath().WithAttributeName(name))
	if err != nil {
		return tftypes.Value{}, false
	}
	v, ok := got.(tftypes.Value)
	return v, ok && !v.IsNull()
}

// show is a number of the configuration as HCL writes it.
func show(v tftypes.Value) string {
	var n big.Float
	if !v.IsKnown() || v.As(&n) != nil {
		return "not known yet"
	}
	return n.Text('f', -1)
}
