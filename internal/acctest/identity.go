package acctest

import (
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// NeedsIdentity skips a test below Terraform 1.12, the first with
// resource identity.
var NeedsIdentity = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// IdentitySteps check a resource's identity once config is applied: the
// identity has the expected values and each attribute equals the state's
// attribute of the same name; a refresh leaves it unchanged; and the object
// imports through an import block by identity and by id.
func IdentitySteps(config, addr string, identity map[string]knownvalue.Check, importIgnore ...string) []resource.TestStep {
	// The state attributes equal the identity's, and the values stay the
	// same from step to step.
	type comparer interface {
		AddStateValue(string, tfjsonpath.Path) statecheck.StateCheck
	}
	stable := map[string]comparer{}
	for name := range identity {
		stable[name] = statecheck.CompareValue(compare.ValuesSame())
	}
	withStable := func() []statecheck.StateCheck {
		out := []statecheck.StateCheck{statecheck.ExpectIdentity(addr, identity)}
		for name, c := range stable {
			out = append(out,
				statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New(name)),
				c.AddStateValue(addr, tfjsonpath.New(name)))
		}
		return out
	}
	return []resource.TestStep{
		{Config: config, ConfigStateChecks: withStable()},
		{
			Config:            config,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: withStable(),
		},
		{
			Config:                  config,
			ResourceName:            addr,
			ImportState:             true,
			ImportStateKind:         resource.ImportBlockWithResourceIdentity,
			ImportStateVerifyIgnore: importIgnore,
		},
		{
			Config:                  config,
			ResourceName:            addr,
			ImportState:             true,
			ImportStateKind:         resource.ImportBlockWithID,
			ImportStateVerifyIgnore: importIgnore,
		},
	}
}

// ImportRefused is a step that imports id into addr, with config in the
// step's folder, and expects the import to fail with want (a pattern, as
// ExpectError reads it).
func ImportRefused(config, addr, id, want string) resource.TestStep {
	return resource.TestStep{
		Config:        config,
		ResourceName:  addr,
		ImportState:   true,
		ImportStateId: id,
		ExpectError:   ExpectError(want),
	}
}
