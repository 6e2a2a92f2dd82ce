package framework

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// Creation names what a create makes, for the diagnostics of its outcome
// (see mgmt.SafeCreate): the object it finds under its natural key when the
// API answered 409, or when an answer was lost.
type Creation struct {
	// TypeName is the resource type, for the import command.
	TypeName string
	// Summary is the object in diagnostic summaries ("resource server").
	Summary string
	// Noun is the object in details ("API").
	Noun string
	// Key is the attribute that is unique in the tenant ("identifier"),
	// and Value its value.
	Key, Value string
	// ImportByKey says that the resource's import also accepts Value.
	ImportByKey bool
	// NotUnique says that Key is not unique in the tenant (a client's
	// name): what a create whose answer was lost finds under it may be
	// another writer's, so it is never adopted (mgmt.SafeCreate's same
	// answers false), and a 409 does not mean the key is taken.
	NotUnique bool
}

// Found is the object a create found under its natural key: its id, and
// what tells it apart ("name \"x\", action_id \"y\"", or "").
type Found struct {
	ID, Description string
}

// Result turns what mgmt.SafeCreate returned into diagnostics: the object
// existed before this apply (it is not taken over; its import command is
// given), a lost answer found a different object (not adopted), a lost
// answer found this apply's object (adopted, with a warning), or another
// error (explained by other). It reports whether the create produced the
// object, which then goes into the state.
func (c Creation) Result(found *Found, outcome mgmt.CreateOutcome, err error, other func(error) string, diags *diag.Diagnostics) bool {
	summary := "Unable to create " + c.Summary
	// When the lookup found nothing to name (a 409 for an object the
	// list does not show yet), the import names it by its key if it can.
	id, also := "<the id of the existing "+c.Noun+">", ""
	if c.ImportByKey {
		id = c.Value
	}
	if found != nil {
		id = found.ID
		if found.Description != "" {
			also = ", " + found.Description
		}
	}
	switch {
	case errors.Is(err, mgmt.ErrDifferent) && c.NotUnique:
		diags.AddAttributeError(path.Root(c.Key), summary, fmt.Sprintf(
			"The answer to creating the %[1]s with %[2]s %[3]q was lost, and the tenant now holds the %[1]s %[4]s%[5]s of that %[2]s. "+
				"The %[2]s is not unique, so none was adopted.\n\n"+
				"If one is this apply's, import it:\n  terraform import %[6]s.<name> %[4]s\notherwise apply again.",
			c.Noun, c.Key, c.Value, id, also, c.TypeName))
	case errors.Is(err, mgmt.ErrExists) && !c.NotUnique:
		diags.AddAttributeError(path.Root(c.Key), summary, fmt.Sprintf(
			"%[7]s %[1]s with %[2]s %[3]q already exists in the tenant (id %[4]s%[5]s); the %[2]s is unique, so it was not created, and the %[1]s "+
				"is not taken over because it existed before this apply (another configuration, or another instance of this resource "+
				"with the same %[2]s, may manage it).\n\n"+
				"To manage it here, import it:\n  terraform import %[6]s.<name> %[4]s\nor choose another %[2]s.",
			c.Noun, c.Key, c.Value, id, also, c.TypeName, article(c.Noun)))
	case errors.Is(err, mgmt.ErrDifferent):
		diags.AddAttributeError(path.Root(c.Key), summary, fmt.Sprintf(
			"The answer to creating the %[1]s with %[2]s %[3]q was lost, and the %[1]s now found under it (id %[4]s%[5]s) differs "+
				"from the configuration, so it was not adopted: another writer may have created it.\n\n"+
				"If it is this apply's, import it:\n  terraform import %[6]s.<name> %[4]s\nand apply again; otherwise apply again to create it.",
			c.Noun, c.Key, c.Value, id, also, c.TypeName))
	case err != nil:
		diags.AddError(summary, other(err))
	case outcome == mgmt.Adopted:
		diags.AddWarning(strings.ToUpper(c.Summary[:1])+c.Summary[1:]+" created after a lost answer", fmt.Sprintf(
			"The answer to creating the %[1]s with %[2]s %[3]q was lost, and the %[1]s found under it (id %[4]s) equals the "+
				"configuration, so it is the one this apply created and was taken into the state instead of created twice.",
			c.Noun, c.Key, c.Value, id))
	}
	return err == nil
}

// Taken reports, at plan, that the tenant already holds another object
// (found) under the value of the unique key, so that the apply would fail
// as Result's 409 does; with the import command and the ways out a plan
// can name.
func (c Creation) Taken(found Found, diags *diag.Diagnostics) {
	also := ""
	if found.Description != "" {
		also = ", " + found.Description
	}
	diags.AddAttributeError(path.Root(c.Key), "Unable to use "+c.Summary+" "+strings.ReplaceAll(c.Key, "_", " "), fmt.Sprintf(
		"%[1]s %[2]s with %[3]s %[4]q already exists in the tenant (id %[5]s%[6]s); the %[3]s is unique, so the apply would fail.\n\n"+
			"To manage it here, import it:\n  terraform import %[7]s.<name> %[5]s\n"+
			"If this configuration manages it under another address, rename it with a moved block instead of destroying one "+
			"and creating the other. If this configuration changes that %[2]s's %[3]s in the same apply, Terraform does not "+
			"order the two changes: make them in two applies. If it is this resource's own object, tainted (Terraform does "+
			"not say so to the provider), run terraform untaint on this resource and plan with -replace=<its address> "+
			"instead. Or choose another %[3]s.", article(c.Noun), c.Noun, c.Key, c.Value, found.ID, also, c.TypeName))
}

// article is "An" before a noun that starts with a vowel, else "A".
func article(noun string) string {
	if noun != "" && strings.ContainsRune("AEIOUaeiou", rune(noun[0])) {
		return "An"
	}
	return "A"
}
