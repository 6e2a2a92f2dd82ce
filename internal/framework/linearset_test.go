package framework_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

var pairType = types.ObjectType{AttrTypes: map[string]attr.Type{"a": types.StringType, "b": types.StringType}}

func pair(a, b string) attr.Value {
	bv := types.StringValue(b)
	if b == "<null>" {
		bv = types.StringNull()
	}
	return types.ObjectValueMust(pairType.AttrTypes, map[string]attr.Value{"a": types.StringValue(a), "b": bv})
}

func set(elems ...attr.Value) framework.LinearSet {
	return framework.LinearSetOf(types.SetValueMust(pairType, elems))
}

func TestLinearSet_equal(t *testing.T) {
	for name, tc := range map[string]struct {
		a, b framework.LinearSet
		want bool
	}{
		"same order":         {set(pair("x", "1"), pair("y", "2")), set(pair("x", "1"), pair("y", "2")), true},
		"other order":        {set(pair("x", "1"), pair("y", "2")), set(pair("y", "2"), pair("x", "1")), true},
		"one value differs":  {set(pair("x", "1"), pair("y", "2")), set(pair("x", "1"), pair("y", "3")), false},
		"null attribute":     {set(pair("x", "")), set(pair("x", "<null>")), false},
		"one more":           {set(pair("x", "1")), set(pair("x", "1"), pair("y", "2")), false},
		"empty and null":     {set(), framework.LinearSetNull(pairType), false},
		"null and null":      {framework.LinearSetNull(pairType), framework.LinearSetNull(pairType), true},
		"null and unknown":   {framework.LinearSetNull(pairType), framework.LinearSetOf(types.SetUnknown(pairType)), false},
		"swapped attributes": {set(pair("x", "y")), set(pair("y", "x")), false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.a.Equal(tc.b); got != tc.want {
				t.Errorf("Equal = %v, want %v", got, tc.want)
			}
			if got := tc.b.Equal(tc.a); got != tc.want {
				t.Errorf("Equal (swapped) = %v, want %v", got, tc.want)
			}
			// Equal agrees with the framework's own set comparison.
			if fw := tc.a.SetValue.Equal(tc.b.SetValue); fw != tc.want {
				t.Errorf("framework Equal = %v, the test case is wrong", fw)
			}
			same, diags := tc.a.SetSemanticEquals(context.Background(), tc.b)
			if diags.HasError() || same != tc.want {
				t.Errorf("SetSemanticEquals = %v (%v), want %v", same, diags, tc.want)
			}
		})
	}
	if set(pair("x", "1")).Equal(types.SetValueMust(pairType, []attr.Value{pair("x", "1")})) {
		t.Error("a LinearSet equals a framework set; the types differ")
	}
}

func TestLinearSetType_roundTrip(t *testing.T) {
	ctx := context.Background()
	typ := framework.NewLinearSetType(pairType)
	want := set(pair("x", "1"), pair("y", "<null>"))
	tv, err := want.ToTerraformValue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := typ.ValueFromTerraform(ctx, tv)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(want) || !got.Type(ctx).Equal(typ) {
		t.Errorf("round trip gave %v (%T)", got, got)
	}
	if !typ.Equal(framework.NewLinearSetType(pairType)) || typ.Equal(types.SetType{ElemType: pairType}) {
		t.Error("type equality is wrong")
	}
}

func TestLinearSetType_validate(t *testing.T) {
	ctx := context.Background()
	typ := framework.NewLinearSetType(pairType)
	tfType := typ.TerraformType(ctx)
	obj := func(a, b string) tftypes.Value {
		return tftypes.NewValue(pairType.TerraformType(ctx), map[string]tftypes.Value{
			"a": tftypes.NewValue(tftypes.String, a), "b": tftypes.NewValue(tftypes.String, b),
		})
	}
	// A set value cannot be built with a duplicate through the framework, but
	// Terraform's wire value can hold one.
	dup := tftypes.NewValue(tfType, []tftypes.Value{obj("x", "1"), obj("y", "2"), obj("x", "1")})
	diags := typ.Validate(ctx, dup, path.Root("scopes"))
	if !diags.HasError() || !strings.Contains(fmt.Sprint(diags), "duplicate") {
		t.Errorf("a duplicate element passed: %v", diags)
	}
	ok := tftypes.NewValue(tfType, []tftypes.Value{obj("x", "1"), obj("x", "2"), obj("y", "1")})
	if diags := typ.Validate(ctx, ok, path.Root("scopes")); diags.HasError() {
		t.Errorf("distinct elements refused: %v", diags)
	}
	unknown := tftypes.NewValue(tfType, []tftypes.Value{obj("x", "1"), tftypes.NewValue(pairType.TerraformType(ctx), tftypes.UnknownValue)})
	if diags := typ.Validate(ctx, unknown, path.Root("scopes")); diags.HasError() {
		t.Errorf("an unknown element refused: %v", diags)
	}
}

// BenchmarkLinearSet_equal compares two sets of 1,000 elements in a
// different order, with the framework's set and with LinearSet.
func BenchmarkLinearSet_equal(b *testing.B) {
	elems := make([]attr.Value, 1000)
	for i := range elems {
		elems[i] = pair(fmt.Sprintf("scope:%d", i), "a description")
	}
	reversed := make([]attr.Value, len(elems))
	for i, e := range elems {
		reversed[len(elems)-1-i] = e
	}
	a, c := set(elems...), set(reversed...)
	b.Run("framework", func(b *testing.B) {
		for b.Loop() {
			if !a.SetValue.Equal(c.SetValue) {
				b.Fatal("not equal")
			}
		}
	})
	b.Run("linear", func(b *testing.B) {
		for b.Loop() {
			if !a.Equal(c) {
				b.Fatal("not equal")
			}
		}
	})
}
