package tokenexchangeprofile_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/tokenexchangeprofile"
)

func TestSchema_validateImplementation(t *testing.T) {
	ctx := context.Background()
	var rs resource.SchemaResponse
	tokenexchangeprofile.NewResource().Schema(ctx, resource.SchemaRequest{}, &rs)
	if d := rs.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	var ds datasource.SchemaResponse
	tokenexchangeprofile.NewDataSource().Schema(ctx, datasource.SchemaRequest{}, &ds)
	if d := ds.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	for name, a := range rs.Schema.Attributes {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("%s has no description", name)
		}
	}
}
