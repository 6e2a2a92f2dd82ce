package validate

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// RoleIDPattern is the shape of a role id: rol_ and letters and digits
// (reference §0.2: rol_ and 16 alphanumerics; any length is accepted).
var RoleIDPattern = regexp.MustCompile(`^rol_[A-Za-z0-9]+$`)

// RoleID accepts a role id, so that no value can change the route of a
// request about a role (a "::" or "/" in it would).
func RoleID() validator.String {
	return stringvalidator.RegexMatches(RoleIDPattern, "must be a role id: rol_ followed by letters and digits")
}
