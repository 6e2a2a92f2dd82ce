// Package planrules states a resource's plan rules as a table, one class of
// attributes a row (Rule), and renders the table for the resource's page
// (Table). What the tests of such a table share is in planrulestest.
package planrules

import (
	"fmt"
	"strings"
)

// Rule is what the plan of an attribute the configuration leaves out holds
// (a value the configuration sets is the plan's, whatever the rule), and
// where that is decided.
type Rule struct {
	Class, Rule, By string
	Attributes      []string // paths, dotted below the top level
}

// Table is rules as the resource's page shows them.
func Table(rules []Rule) string {
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
