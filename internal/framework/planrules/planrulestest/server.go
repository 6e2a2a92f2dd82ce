package planrulestest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Server serves resources through the framework's protocol server, from a
// provider that configures nothing: plan rules need no request.
func Server(resources ...func() resource.Resource) (tfprotov6.ProviderServer, error) {
	srv := providerserver.NewProtocol6(ruleProvider(resources))()
	_, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	return srv, err
}

type ruleProvider []func() resource.Resource

func (ruleProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "tenant"
}

func (ruleProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (ruleProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (ruleProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (p ruleProvider) Resources(context.Context) []func() resource.Resource { return p }
