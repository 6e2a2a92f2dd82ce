package client_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/client"
)

// TestSchemas: every schema of the family is valid, and every attribute
// has a description that ends with a period.
func TestSchemas(t *testing.T) {
	ctx := context.Background()
	for _, r := range []resource.Resource{client.NewResource(), client.NewGrantResource()} {
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		if d := resp.Schema.ValidateImplementation(ctx); d.HasError() {
			t.Fatal(d)
		}
		for name, a := range resp.Schema.Attributes {
			if desc := a.GetMarkdownDescription(); desc == "" || desc[len(desc)-1] != '.' {
				t.Errorf("%s: description %q", name, desc)
			}
		}
	}
	for _, d := range []datasource.DataSource{client.NewDataSource(), client.NewGrantDataSource()} {
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Fatal(diags)
		}
		for _, secret := range []string{"client_secret", "client_secret_rotation", "client_secret_in_state"} {
			if _, ok := resp.Schema.Attributes[secret]; ok {
				t.Errorf("the data source has %s", secret)
			}
		}
	}
	for _, l := range []list.ListResource{client.NewListResource(), client.NewGrantListResource()} {
		var resp list.ListResourceSchemaResponse
		l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &resp)
		if d := resp.Schema.ValidateImplementation(ctx); d.HasError() {
			t.Fatal(d)
		}
	}
	var resp ephemeral.SchemaResponse
	client.NewSecretEphemeralResource().Schema(ctx, ephemeral.SchemaRequest{}, &resp)
	if d := resp.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	if !resp.Schema.Attributes["client_secret"].IsSensitive() {
		t.Error("the ephemeral secret is not sensitive")
	}
}
