package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// unknownServer serves the reads of a provider whose settings are known
// only at apply (a domain or credentials from another resource, or a
// module output), when Terraform cannot defer them: Configure has warned
// once, and instead of one "Unable to read" per object, every object of
// every type keeps its state (the plan shows no change made outside
// Terraform), and every data source fails with one error that says why and
// what to do. Once the settings are known, as at apply, it changes nothing.
type unknownServer struct {
	frameworkServer
	provider *tenantProvider
}

func (s unknownServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if !s.provider.unknown.Load() {
		return s.frameworkServer.ReadResource(ctx, req)
	}
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private, NewIdentity: req.CurrentIdentity}, nil
}

func (s unknownServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	if !s.provider.unknown.Load() {
		return s.frameworkServer.ReadDataSource(ctx, req)
	}
	return &tfprotov6.ReadDataSourceResponse{Diagnostics: []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError,
		Summary:  "Provider configuration not known until apply",
		Detail: fmt.Sprintf("The data source %s reads the tenant during plan, but the provider's domain or credentials are "+
			"known only at apply. Set them in the provider block or its environment variables, or apply the resource "+
			"they come from first (terraform apply -target=<address>).", req.TypeName),
	}}}, nil
}
