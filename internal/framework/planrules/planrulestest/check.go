package planrulestest

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planrules"
)

// Shape is what a class asks of the schema of each attribute in it.
type Shape struct {
	Optional, Computed, Default, WriteOnly bool
	// Modifiers are the types of the attribute's plan modifiers, in order
	// (each the end of its %T), RequiresReplace aside.
	Modifiers []string
	// Filled is where the attribute may lie: inside a top-level object
	// that planmodifiers.KeepFilled rules, or not.
	Filled Where
}

// Where is where an attribute lies with respect to KeepFilled.
type Where int

const (
	// Outside: not inside an object that KeepFilled rules.
	Outside Where = iota
	// Inside: inside one.
	Inside
	// Anywhere: either.
	Anywhere
)

// Reporter is the part of *testing.T the checks use.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// Check reports each way s and rules disagree: an attribute a
// configuration may leave out (not required, not inside a computed-only
// object) that is in no class or in two, a listed path that is no such
// attribute, and an attribute whose schema is not its class's shape.
func Check(t Reporter, s schema.Schema, rules []planrules.Rule, shapes map[string]Shape) {
	t.Helper()
	classOf := map[string]string{}
	for _, r := range rules {
		if _, ok := shapes[r.Class]; !ok {
			t.Errorf("class %q has no shape", r.Class)
		}
		for _, p := range r.Attributes {
			if c, ok := classOf[p]; ok {
				t.Errorf("%s is in %q and %q", p, c, r.Class)
			}
			classOf[p] = r.Class
		}
	}
	seen := map[string]bool{}
	walk("", s.Attributes, "", func(p string, a schema.Attribute, filledBy string) {
		seen[p] = true
		class, listed := classOf[p]
		if !listed {
			t.Errorf("%s follows no rule of the table", p)
			return
		}
		if shape, ok := shapes[class]; ok {
			if err := shape.check(a, filledBy); err != nil {
				t.Errorf("%s (%s): %v", p, class, err)
			}
		}
	})
	for p := range classOf {
		if !seen[p] {
			t.Errorf("%s is in the table but not an attribute a configuration may leave out", p)
		}
	}
}

// Page reports it when the page template at file does not hold the Table
// of rules.
func Page(t Reporter, file string, rules []planrules.Rule) {
	t.Helper()
	page, err := os.ReadFile(file)
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	if table := Table(rules); !strings.Contains(string(page), table) {
		t.Errorf("%s does not hold the table of the rules:\n%s", file, table)
	}
}

// walk calls f with each attribute a configuration may leave out (not
// required, not inside a computed-only object), by dotted path, and the
// top-level object whose KeepFilled rules it, if any.
func walk(at string, attrs map[string]schema.Attribute, filledBy string, f func(string, schema.Attribute, string)) {
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
		walk(p, n.Attributes, by, f)
	}
}

// check reports how a differs from the shape.
func (want Shape) check(a schema.Attribute, filledBy string) error {
	shape := func(optional, computed, hasDefault, writeOnly bool) string {
		return fmt.Sprintf("optional %t, computed %t, default %t, write-only %t", optional, computed, hasDefault, writeOnly)
	}
	if got, exp := shape(a.IsOptional(), a.IsComputed(), hasDefault(a), a.IsWriteOnly()),
		shape(want.Optional, want.Computed, want.Default, want.WriteOnly); got != exp {
		return fmt.Errorf("%s, want %s", got, exp)
	}
	mods := slices.DeleteFunc(modifiers(a), func(m string) bool { return strings.Contains(m, "requiresReplace") })
	if len(mods) != len(want.Modifiers) {
		return fmt.Errorf("plan modifiers %v, want %v", mods, want.Modifiers)
	}
	for i := range mods {
		if !strings.HasSuffix(mods[i], want.Modifiers[i]) {
			return fmt.Errorf("plan modifiers %v, want %v", mods, want.Modifiers)
		}
	}
	if inside := filledBy != ""; want.Filled != Anywhere && inside != (want.Filled == Inside) {
		return fmt.Errorf("inside %q, which KeepFilled rules", filledBy)
	}
	return nil
}

// modifiers are the types of a's plan modifiers.
func modifiers(a schema.Attribute) []string {
	m := field(a, "PlanModifiers")
	out := make([]string, 0, m.Len())
	for i := range m.Len() {
		out = append(out, m.Index(i).Elem().Type().String())
	}
	return out
}

func hasDefault(a schema.Attribute) bool { return !field(a, "Default").IsNil() }

// field is a's field name: every attribute type of the framework's resource
// schema has PlanModifiers and Default, each of its own type.
func field(a schema.Attribute, name string) reflect.Value {
	v := reflect.ValueOf(a).FieldByName(name)
	if !v.IsValid() {
		panic(fmt.Sprintf("planrulestest: %T has no %s", a, name))
	}
	return v
}

// Table is rules as the resource's page shows them.
func Table(rules []planrules.Rule) string {
	var b strings.Builder
	b.WriteString("| class | the plan when the configuration leaves the argument out | arguments |\n| --- | --- | --- |\n")
	for _, r := range rules {
		names := make([]string, len(r.Attributes))
		for i, a := range r.Attributes {
			names[i] = "`" + a + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.Class, r.Rule, strings.Join(names, ", "))
	}
	return b.String()
}
