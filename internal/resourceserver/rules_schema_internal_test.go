package resourceserver

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planrules/planrulestest"
)

// ruleShapes are what each class of resourceServerRules asks of the schema
// of its attributes.
var ruleShapes = map[string]planrulestest.Shape{
	"assigned":        {Computed: true, Modifiers: []string{"useStateForUnknownModifier"}},
	"computed":        {Computed: true, Modifiers: []string{"resourceserver.thumbprintPlan"}},
	"default":         {Optional: true, Computed: true, Default: true},
	"derived default": {Optional: true, Computed: true, Modifiers: []string{"resourceserver.webLifetimePlan"}},
	"kept":            {Optional: true, Computed: true, Modifiers: []string{"useStateForUnknownModifier"}},
	"not enforced":    {Optional: true, Computed: true, Modifiers: []string{"resourceserver.enforcePoliciesPlan"}},
	"filled":          {Optional: true, Computed: true, Modifiers: []string{"useNonNullStateForUnknown"}},
	"cleared":         {Optional: true},
	"secret":          {Optional: true},
	"write-only":      {Optional: true, WriteOnly: true},
	"switch":          {Optional: true},
}

// TestPlanRules_schema: the schema attaches to each attribute the rule
// resourceServerRules gives it, the table lists every attribute a
// configuration may leave out once, and the resource's page shows it.
func TestPlanRules_schema(t *testing.T) {
	var resp resource.SchemaResponse
	NewResource().Schema(context.Background(), resource.SchemaRequest{}, &resp)
	planrulestest.Check(t, resp.Schema, resourceServerRules, ruleShapes)
	planrulestest.Page(t, "../../templates/resources/resource_server.md.tmpl", resourceServerRules)
}
