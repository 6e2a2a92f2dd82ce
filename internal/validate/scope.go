package validate

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// noWhiteSpace matches a value without white space.
var noWhiteSpace = regexp.MustCompile(`^\S*$`)

// ScopeValue checks a scope's value, which is also a permission's name: 1 to
// 280 characters (reference §4), without white space. Clients request scopes
// as one space-separated list (RFC 6749 §3.3), so a value holding white
// space could never be requested. The reference does not say whether the
// tenant refuses one; the provider refuses it at plan either way.
func ScopeValue() []validator.String {
	return []validator.String{
		stringvalidator.UTF8LengthBetween(1, 280),
		stringvalidator.RegexMatches(noWhiteSpace, "must not contain white space (scopes are requested as one space-separated list, "+
			"so such a scope could never be requested)"),
	}
}
