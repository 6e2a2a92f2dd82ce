package client

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// TestPlanRules_schema: the schema attaches to each attribute the rule the
// tables give it, the tables list every attribute a configuration may leave
// out once, and the client's page shows its table.
func TestPlanRules_schema(t *testing.T) {
	for typeName, tc := range map[string]struct {
		schema schema.Schema
		rules  []planRule
	}{
		TypeName:      {clientSchema(), clientRules},
		GrantTypeName: {grantSchema(), grantRules},
	} {
		t.Run(typeName, func(t *testing.T) {
			classOf := map[string]string{}
			for _, r := range tc.rules {
				for _, p := range r.attributes {
					if c, ok := classOf[p]; ok {
						t.Errorf("%s is in %q and %q", p, c, r.class)
					}
					classOf[p] = r.class
				}
			}
			seen := map[string]bool{}
			walkAttributes("", tc.schema.Attributes, "", func(p string, a schema.Attribute, filledBy string) {
				seen[p] = true
				class, listed := classOf[p]
				if !listed {
					t.Errorf("%s follows no rule of the table", p)
					return
				}
				if err := checkClass(class, a, filledBy); err != nil {
					t.Errorf("%s (%s): %v", p, class, err)
				}
			})
			for p := range classOf {
				if !seen[p] {
					t.Errorf("%s is in the table but not an attribute a configuration may leave out", p)
				}
			}
		})
	}
	page, err := os.ReadFile("../../templates/resources/client.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	if table := rulesTable(clientRules); !strings.Contains(string(page), table) {
		t.Errorf("templates/resources/client.md.tmpl does not hold the table of clientRules:\n%s", table)
	}
}

// walkAttributes calls f with each attribute a configuration may leave out
// (not required, not inside a computed-only object), by dotted path, and
// the top-level object whose KeepFilled rules it, if any.
func walkAttributes(at string, attrs map[string]schema.Attribute, filledBy string, f func(string, schema.Attribute, string)) {
	for name, a := range attrs {
		p := name
		if at != "" {
			p = at + "." + name
		}
		if !a.IsRequired() {
			f(p, a, filledBy)
		}
		n, ok := a.(schema.SingleNestedAttribute)
		if !ok || !a.IsOptional() && !a.IsRequired() {
			continue
		}
		by := filledBy
		if at == "" && slices.Contains(modifiers(a), "planmodifiers.keepFilled") {
			by = p
		}
		walkAttributes(p, n.Attributes, by, f)
	}
}

// checkClass reports how a differs from what its class asks.
func checkClass(class string, a schema.Attribute, filledBy string) error {
	mods := slices.DeleteFunc(modifiers(a), func(m string) bool { return strings.Contains(m, "requiresReplace") })
	optional, computed, hasDefault := a.IsOptional(), a.IsComputed(), hasDefault(a)
	want := map[string]struct {
		optional, computed, hasDefault bool
		mods                           []string
	}{
		"assigned":                         {false, true, false, []string{"useStateForUnknownModifier"}},
		"default":                          {true, true, true, nil},
		"derived default":                  {true, true, false, []string{"planmodifiers.DefaultFromModifier"}},
		"kept":                             {true, true, false, []string{"useStateForUnknownModifier"}},
		"kept, filled inside":              {true, true, false, []string{"planmodifiers.keepFilled"}},
		"filled":                           {true, true, false, nil},
		"cleared":                          {true, false, false, nil},
		"cleared, filled inside":           {true, false, false, []string{"planmodifiers.keepFilled"}},
		"cleared where the tenant lets go": {true, true, false, nil},
		"shown":                            {true, true, false, nil},
		"switch":                           {true, false, false, nil},
		"secret":                           {false, true, false, []string{"client.secretPlan"}},
	}[class]
	got := fmt.Sprintf("optional %t, computed %t, default %t", optional, computed, hasDefault)
	if exp := fmt.Sprintf("optional %t, computed %t, default %t", want.optional, want.computed, want.hasDefault); got != exp {
		return fmt.Errorf("%s, want %s", got, exp)
	}
	if len(mods) != len(want.mods) {
		return fmt.Errorf("plan modifiers %v, want %v", mods, want.mods)
	}
	for i := range mods {
		if !strings.HasSuffix(mods[i], want.mods[i]) {
			return fmt.Errorf("plan modifiers %v, want %v", mods, want.mods)
		}
	}
	if inside := class == "filled" || class == "cleared where the tenant lets go"; inside != (filledBy != "") && class != "cleared" {
		return fmt.Errorf("inside %q, which KeepFilled rules", filledBy)
	}
	return nil
}

// modifiers are the types of a's plan modifiers.
func modifiers(a schema.Attribute) []string {
	var out []string
	add := func(n int, at func(int) any) {
		for i := range n {
			out = append(out, fmt.Sprintf("%T", at(i)))
		}
	}
	switch a := a.(type) {
	case schema.StringAttribute:
		add(len(a.PlanModifiers), func(i int) any { return a.PlanModifiers[i] })
	case schema.BoolAttribute:
		add(len(a.PlanModifiers), func(i int) any { return a.PlanModifiers[i] })
	case schema.Int64Attribute:
		add(len(a.PlanModifiers), func(i int) any { return a.PlanModifiers[i] })
	case schema.ListAttribute:
		add(len(a.PlanModifiers), func(i int) any { return a.PlanModifiers[i] })
	case schema.SetAttribute:
		add(len(a.PlanModifiers), func(i int) any { return a.PlanModifiers[i] })
	case schema.MapAttribute:
		add(len(a.PlanModifiers), func(i int) any { return a.PlanModifiers[i] })
	case schema.SingleNestedAttribute:
		add(len(a.PlanModifiers), func(i int) any { return a.PlanModifiers[i] })
	case schema.ListNestedAttribute:
		add(len(a.PlanModifiers), func(i int) any { return a.PlanModifiers[i] })
	default:
		panic(fmt.Sprintf("modifiers: add %T", a))
	}
	return out
}

func hasDefault(a schema.Attribute) bool {
	switch a := a.(type) {
	case schema.StringAttribute:
		return a.Default != nil
	case schema.BoolAttribute:
		return a.Default != nil
	case schema.Int64Attribute:
		return a.Default != nil
	case schema.SetAttribute:
		return a.Default != nil
	case schema.SingleNestedAttribute:
		return a.Default != nil
	}
	return false
}

// rulesTable is rules as the resource's page shows them.
func rulesTable(rules []planRule) string {
	var b strings.Builder
	b.WriteString("| class | the plan when the configuration leaves the argument out | arguments |\n| --- | --- | --- |\n")
	for _, r := range rules {
		names := make([]string, len(r.attributes))
		for i, a := range r.attributes {
			names[i] = "`" + a + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.class, r.rule, strings.Join(names, ", "))
	}
	return b.String()
}
