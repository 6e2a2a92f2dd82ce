package planrulestest

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Plan is the framework's plan (srv's PlanResourceChange) of config over
// prior for typeName, whose schema is s, from the proposal Terraform makes;
// an error diagnostic is an error.
func Plan(srv tfprotov6.ProviderServer, typeName string, s schema.Schema, config, prior tftypes.Value, private []byte) (tftypes.Value, error) {
	ctx := context.Background()
	typ := s.Type().TerraformType(ctx)
	var err error
	dv := func(v tftypes.Value) *tfprotov6.DynamicValue {
		d, e := tfprotov6.NewDynamicValue(typ, v)
		if err == nil {
			err = e
		}
		return &d
	}
	req := &tfprotov6.PlanResourceChangeRequest{
		TypeName: typeName, Config: dv(config), PriorState: dv(prior), ProposedNewState: dv(Proposed(s.Attributes, prior, config)),
		PriorPrivate: private,
	}
	if err != nil {
		return tftypes.Value{}, err
	}
	resp, err := srv.PlanResourceChange(ctx, req)
	if err != nil {
		return tftypes.Value{}, err
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return tftypes.Value{}, fmt.Errorf("%s: %s", d.Summary, d.Detail)
		}
	}
	return resp.PlannedState.Unmarshal(typ)
}

// Differences are the paths where planned is not prior changed by want
// (dotted paths to their planned value, rendered as Flatten does: "?" is
// known after apply); with no prior (a create), the paths of want only.
func Differences(planned, prior tftypes.Value, want map[string]string) []string {
	got, exp := Flatten(planned), map[string]string{}
	if !prior.IsNull() {
		exp = Flatten(prior)
	}
	for p, v := range want {
		for q := range exp {
			if q == p || strings.HasPrefix(q, p+".") || strings.HasPrefix(p, q+".") {
				delete(exp, q)
			}
		}
		exp[p] = v
	}
	var out []string
	for _, p := range slices.Sorted(maps.Keys(exp)) {
		if got[p] != exp[p] {
			out = append(out, fmt.Sprintf("%s: planned %s, want %s", p, got[p], exp[p]))
		}
	}
	if prior.IsNull() {
		return out
	}
	for _, p := range slices.Sorted(maps.Keys(got)) {
		if _, ok := exp[p]; !ok {
			out = append(out, fmt.Sprintf("%s: planned %s, not in the state", p, got[p]))
		}
	}
	return out
}

// Proposed is the proposed new state Terraform sends with config over
// prior (hashicorp/terraform internal/plans/objchange, proposedNewAttributes
// and proposedNewNestedType): the configuration's value of each attribute,
// the prior's where the attribute is computed and the configuration null,
// but null for an optional and computed object whose prior value holds a
// value that is not computed (optionalValueNotComputable); inside a nested
// object, the same.
func Proposed(attrs map[string]schema.Attribute, prior, config tftypes.Value) tftypes.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	var c, p map[string]tftypes.Value
	if err := config.As(&c); err != nil {
		panic(err)
	}
	if !prior.IsNull() {
		if err := prior.As(&p); err != nil {
			panic(err)
		}
	}
	out := map[string]tftypes.Value{}
	for name, a := range attrs {
		cv := c[name]
		pv := tftypes.NewValue(cv.Type(), nil)
		if p != nil {
			pv = p[name]
		}
		v := pv
		switch {
		case !a.IsComputed(), cv.IsKnown() && !cv.IsNull():
			v = cv
		case a.IsOptional() && notComputable(a, pv):
			v = cv
		}
		if n, ok := a.(schema.SingleNestedAttribute); ok {
			v = Proposed(n.Attributes, pv, v)
		}
		out[name] = v
	}
	return tftypes.NewValue(config.Type(), out)
}

// notComputable reports whether v, the value of the object attribute a,
// holds a value of an attribute that is not computed: then it came from a
// configuration, and Terraform will not keep it when the configuration
// leaves the object out.
func notComputable(a schema.Attribute, v tftypes.Value) bool {
	n, ok := a.(schema.SingleNestedAttribute)
	if !ok || v.IsNull() || !v.IsKnown() {
		return false
	}
	var vals map[string]tftypes.Value
	if err := v.As(&vals); err != nil {
		panic(err)
	}
	for name, inner := range n.Attributes {
		if vals[name].IsNull() {
			continue
		}
		if !inner.IsComputed() || notComputable(inner, vals[name]) {
			return true
		}
	}
	return false
}

// Flatten is v by dotted path down to its leaves: a null or unknown object
// is one leaf, so is a list or map; "?" is unknown.
func Flatten(v tftypes.Value) map[string]string { return flatten("", v) }

func flatten(at string, v tftypes.Value) map[string]string {
	out := map[string]string{}
	if v.Type().Is(tftypes.Object{}) && v.IsKnown() && !v.IsNull() {
		var attrs map[string]tftypes.Value
		if err := v.As(&attrs); err != nil {
			panic(err)
		}
		for name, a := range attrs {
			p := name
			if at != "" {
				p = at + "." + name
			}
			maps.Copy(out, flatten(p, a))
		}
		return out
	}
	out[at] = render(v)
	return out
}

// render is v as a short text: null, ?, a JSON-like value.
func render(v tftypes.Value) string {
	switch {
	case !v.IsKnown():
		return "?"
	case v.IsNull():
		return "null"
	case v.Type().Is(tftypes.List{}), v.Type().Is(tftypes.Set{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		out := make([]string, len(elems))
		for i, e := range elems {
			out[i] = render(e)
		}
		return "[" + strings.Join(out, ",") + "]"
	case v.Type().Is(tftypes.Map{}), v.Type().Is(tftypes.Object{}):
		var elems map[string]tftypes.Value
		_ = v.As(&elems)
		var out []string
		for _, k := range slices.Sorted(maps.Keys(elems)) {
			out = append(out, fmt.Sprintf("%s:%s", k, render(elems[k])))
		}
		return "{" + strings.Join(out, ",") + "}"
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return fmt.Sprintf("%q", s)
	case v.Type().Is(tftypes.Number):
		var n big.Float
		_ = v.As(&n)
		return n.Text('f', -1)
	}
	var b bool
	_ = v.As(&b)
	return fmt.Sprint(b)
}
