// Package planmodifiers holds the plan rules more than one resource follows,
// one modifier a file; each resource's schema says which attribute follows
// which.
package planmodifiers

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// KeepFilled is the rule of a top-level object whose optional and computed
// values the tenant fills when the configuration leaves them out, and that a
// PATCH sends whole:
//
//   - left out of the configuration (an optional and computed object), the
//     object is the state's;
//   - a value inside that the configuration leaves out is the state's when
//     the state holds one: the request sends it back if it sends the object;
//   - a value the tenant answered none for (null in the state) stays null
//     while the update does not send the object (what the configuration sets
//     in it is the state's, and nothing the state holds is removed), and is
//     known after apply when it sends it, since the tenant may fill it then;
//   - in an object added now, or on create, what the tenant fills is known
//     after apply.
//
// The values named in cleared (attributes of the object itself) are the
// configuration's to clear instead, where the tenant lets go: left out while
// the state holds one, the update sends the object without it and the value
// is known after apply, since a tenant that merges the object into the one
// it holds keeps it; when the tenant kept it at such an update (the resource
// records that with MarkTenantKept), it is the state's from then on. Left
// out while the state holds none, it is none.
//
// The framework marks every computed value the configuration leaves out
// unknown as soon as anything in the resource changes (and Terraform
// proposes null for an optional and computed object whose state holds a
// required value, which counts as a change): this rule settles each such
// mark inside the object, at the object, so the values inside need no
// modifier of their own.
func KeepFilled(cleared ...string) planmodifier.Object { return keepFilled{cleared: cleared} }

type keepFilled struct{ cleared []string }

func (keepFilled) Description(context.Context) string {
	return "Keeps the state's values of the object, and a null the tenant answered while the object is not sent."
}

func (m keepFilled) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m keepFilled) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	switch {
	case req.ConfigValue.IsUnknown() || req.PlanValue.IsNull():
		return
	case req.PlanValue.IsUnknown():
		if req.ConfigValue.IsNull() && !req.State.Raw.IsNull() {
			resp.PlanValue = req.StateValue
		}
		return
	case req.State.Raw.IsNull() || req.StateValue.IsNull():
		resp.PlanValue = m.clear(ctx, req, req.PlanValue, &resp.Diagnostics)
		return
	}
	plan := m.clear(ctx, req, req.PlanValue, &resp.Diagnostics)
	kept := fill(ctx, req.ConfigValue, plan, req.StateValue, true, m.cleared)
	if kept.Equal(req.StateValue) {
		resp.PlanValue = kept
		return
	}
	resp.PlanValue = fill(ctx, req.ConfigValue, plan, req.StateValue, false, m.cleared)
}

// clear is plan with the cleared values the configuration leaves out
// planned: none where the state holds none (or there is no state), the
// state's where the tenant kept one before, else known after apply.
func (m keepFilled) clear(ctx context.Context, req planmodifier.ObjectRequest, plan types.Object, diags *diag.Diagnostics) types.Object {
	if len(m.cleared) == 0 {
		return plan
	}
	c, p, s := req.ConfigValue.Attributes(), plan.Attributes(), req.StateValue.Attributes()
	for _, name := range m.cleared {
		cv, pv := c[name], p[name]
		if cv == nil || pv == nil || !cv.IsNull() {
			continue
		}
		typ := pv.Type(ctx)
		switch sv := s[name]; {
		case sv == nil || sv.IsNull():
			p[name] = valueOf(ctx, typ, nil, diags)
		case TenantKept(ctx, req.Private, req.Path.AtName(name), diags):
			p[name] = sv
		default:
			p[name] = valueOf(ctx, typ, tftypes.UnknownValue, diags)
		}
	}
	return types.ObjectValueMust(plan.AttributeTypes(ctx), p)
}

// valueOf is the null (v nil) or unknown value of typ.
func valueOf(ctx context.Context, typ attr.Type, v any, diags *diag.Diagnostics) attr.Value {
	out, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(typ.TerraformType(ctx), v))
	if err != nil {
		diags.AddError("Unable to plan", "Building a value of "+typ.String()+": "+err.Error()+". This is a bug in the provider; please report it.")
	}
	return out
}

// fill is plan with each unknown the configuration leaves out settled: the
// state's value, a null one only with keepNulls. Objects inside that the
// configuration, the plan and the state all hold are filled alike (the
// framework marks a computed object the configuration leaves out unknown as
// a whole, so an unknown inside stands where the configuration sets the
// object). The values named in cleared are clear's, and left alone.
func fill(ctx context.Context, config, plan, state types.Object, keepNulls bool, cleared []string) types.Object {
	c, p, s := config.Attributes(), plan.Attributes(), state.Attributes()
	for name, pv := range p {
		cv, sv := c[name], s[name]
		if cv == nil || sv == nil || cv.IsUnknown() || slices.Contains(cleared, name) {
			continue
		}
		if pv.IsUnknown() {
			if cv.IsNull() && (keepNulls || !sv.IsNull()) {
				p[name] = sv
			}
			continue
		}
		co, isObject := cv.(types.Object)
		po, _ := pv.(types.Object)
		so, _ := sv.(types.Object)
		if isObject && !co.IsNull() && !po.IsNull() && !so.IsNull() {
			p[name] = fill(ctx, co, po, so, keepNulls, nil)
		}
	}
	return types.ObjectValueMust(plan.AttributeTypes(ctx), p)
}

// privateKey is the private state key under which a resource records that
// the tenant kept the value at p when an update cleared it.
func privateKey(p path.Path) string { return "tenant_kept:" + p.String() }

// privateGetter and privateSetter are the resource's private state, as the
// requests and responses of the framework hand it.
type (
	privateGetter interface {
		GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	}
	privateSetter interface {
		SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
	}
)

// TenantKept reports whether the resource recorded (MarkTenantKept) that
// the tenant kept the value at p when an update cleared it.
func TenantKept(ctx context.Context, private privateGetter, p path.Path, diags *diag.Diagnostics) bool {
	if private == nil {
		return false
	}
	b, d := private.GetKey(ctx, privateKey(p))
	diags.Append(d...)
	return string(b) == "true"
}

// MarkTenantKept records that the tenant kept the value at p when an update
// cleared it, for KeepFilled's later plans.
func MarkTenantKept(ctx context.Context, private privateSetter, p path.Path, diags *diag.Diagnostics) {
	diags.Append(private.SetKey(ctx, privateKey(p), []byte("true"))...)
}
