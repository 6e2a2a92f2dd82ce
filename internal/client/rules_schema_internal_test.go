package client

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planrules"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planrules/planrulestest"
)

// ruleShapes are what each class of clientRules and grantRules asks of the
// schema of its attributes.
var ruleShapes = map[string]planrulestest.Shape{
	"assigned":                         {Computed: true, Modifiers: []string{"useStateForUnknownModifier"}},
	"default":                          {Optional: true, Computed: true, Default: true},
	"derived default":                  {Optional: true, Computed: true, Modifiers: []string{"planmodifiers.DefaultFromModifier"}},
	"kept":                             {Optional: true, Computed: true, Modifiers: []string{"useStateForUnknownModifier"}},
	"kept, filled inside":              {Optional: true, Computed: true, Modifiers: []string{"planmodifiers.keepFilled"}},
	"filled":                           {Optional: true, Computed: true, Filled: planrulestest.Inside},
	"cleared":                          {Optional: true, Filled: planrulestest.Anywhere},
	"cleared, filled inside":           {Optional: true, Modifiers: []string{"planmodifiers.keepFilled"}},
	"cleared where the tenant lets go": {Optional: true, Computed: true, Filled: planrulestest.Inside},
	"shown":                            {Optional: true, Computed: true},
	"switch":                           {Optional: true},
	"secret":                           {Computed: true, Modifiers: []string{"client.secretPlan"}},
}

// TestPlanRules_schema: the schema attaches to each attribute the rule the
// tables give it, the tables list every attribute a configuration may leave
// out once, and the client's page shows its table.
func TestPlanRules_schema(t *testing.T) {
	for typeName, tc := range map[string]struct {
		schema schema.Schema
		rules  []planrules.Rule
	}{
		TypeName:      {clientSchema(), clientRules},
		GrantTypeName: {grantSchema(), grantRules},
	} {
		t.Run(typeName, func(t *testing.T) {
			planrulestest.Check(t, tc.schema, tc.rules, ruleShapes)
		})
	}
	planrulestest.Page(t, "../../templates/resources/client.md.tmpl", clientRules)
}
