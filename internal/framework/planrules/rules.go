// Package planrules states a resource's plan rules as a table, one class of
// attributes a row (Rule). What the tests of such a table share, the page's
// rendering of it included, is in planrulestest.
package planrules

// Rule is what the plan of an attribute the configuration leaves out holds
// (a value the configuration sets is the plan's, whatever the rule), and
// where that is decided.
type Rule struct {
	Class, Rule, By string
	Attributes      []string // paths, dotted below the top level
}
