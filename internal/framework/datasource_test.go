package framework_test

import (
	"context"
	"testing"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

func TestDataSourceFrom(t *testing.T) {
	r := rschema.Schema{Attributes: map[string]rschema.Attribute{
		"id": rschema.StringAttribute{MarkdownDescription: "The id. Never changes.", Computed: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name":           rschema.StringAttribute{MarkdownDescription: "The name. Updated in place.", Required: true},
		"secret":         rschema.StringAttribute{MarkdownDescription: "A secret.", Optional: true, Computed: true, Sensitive: true},
		"secret_wo":      rschema.StringAttribute{MarkdownDescription: "Write-only.", Optional: true, WriteOnly: true},
		"secret_version": rschema.Int64Attribute{MarkdownDescription: "When to send it.", Optional: true},
		"tags":           rschema.MapAttribute{MarkdownDescription: "Tags.", Optional: true, ElementType: types.StringType},
		"nested": rschema.SingleNestedAttribute{MarkdownDescription: "Nested. Removing it clears it.", Optional: true,
			Attributes: map[string]rschema.Attribute{
				"on":  rschema.BoolAttribute{MarkdownDescription: "On.", Optional: true},
				"key": rschema.StringAttribute{MarkdownDescription: "Write-only key.", Optional: true, WriteOnly: true},
			}},
		"items": rschema.ListNestedAttribute{MarkdownDescription: "Items.", Optional: true,
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"n": rschema.Int64Attribute{MarkdownDescription: "N.", Required: true},
			}}},
	}}
	d := framework.DataSourceFrom{
		Description: "Looks one up.",
		Keys:        map[string]framework.LookupKey{"id": {Description: "The id. Set this or `name`."}, "name": {Description: "The name."}},
		Omit:        []string{"secret_version"},
	}.Schema(r)
	if diags := d.ValidateImplementation(context.Background()); diags.HasError() {
		t.Fatal(diags)
	}
	if _, ok := d.Attributes["secret_wo"]; ok {
		t.Error("a write-only attribute reached the data source")
	}
	if _, ok := d.Attributes["secret_version"]; ok {
		t.Error("an omitted attribute reached the data source")
	}
	id := d.Attributes["id"].(dschema.StringAttribute)
	if !id.Optional || !id.Computed || id.MarkdownDescription != "The id. Set this or `name`." {
		t.Errorf("look-up key id = %+v", id)
	}
	secret := d.Attributes["secret"].(dschema.StringAttribute)
	if !secret.Computed || secret.Optional || !secret.Sensitive {
		t.Errorf("secret = %+v, want computed and sensitive", secret)
	}
	nested := d.Attributes["nested"].(dschema.SingleNestedAttribute)
	if nested.MarkdownDescription != "Nested." || !nested.Computed {
		t.Errorf("nested = %+v", nested)
	}
	if _, ok := nested.Attributes["key"]; ok {
		t.Error("a nested write-only attribute reached the data source")
	}
	if on := nested.Attributes["on"].(dschema.BoolAttribute); !on.Computed {
		t.Errorf("nested.on = %+v", on)
	}
	if n := d.Attributes["items"].(dschema.ListNestedAttribute).NestedObject.Attributes["n"].(dschema.Int64Attribute); !n.Computed || n.Optional {
		t.Errorf("items.n = %+v", n)
	}
}
