package provider

import (
	"context"
	"fmt"
	"maps"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/role"
)

// frameworkServer is the protocol server terraform-plugin-framework builds:
// the provider's RPCs, list resources and actions included.
type frameworkServer interface {
	//lint:ignore SA1019 list resources are served through this interface in terraform-plugin-go v0.31.
	tfprotov6.ProviderServerWithListResource
	tfprotov6.ActionServer
}

// NewServer is the provider's protocol server, the one main serves and the
// acceptance tests run: terraform-plugin-framework's, with each call that
// concerns one object handed a context the framework cannot keep alive, and
// the lists of setsOnTheWire declared to Terraform as the sets they are.
//
// The framework (v1.19) keeps the cancel function of every call's context
// until Terraform sends StopProvider, which it does only on an interrupt, so
// every call's context stays reachable for the life of the process, with
// the loggers terraform-plugin-go attaches to it: about 12 KiB a call, 50 MiB
// for a plan of 1,000 objects, most of the provider's memory. Each call here
// gets a context that forwards to the real one while the call runs and lets
// go of it when the call returns, so the framework keeps a few hundred
// bytes a call instead. Calls whose results stream after they return
// (ListResource, InvokeAction) keep their context as it is.
func NewServer(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		p := &tenantProvider{version: version}
		s, ok := providerserver.NewProtocol6(p)().(frameworkServer)
		if !ok {
			panic("terraform-plugin-framework's server does not serve list resources and actions; update NewServer")
		}
		return releasingServer{unknownServer{s, p}}
	}
}

// releasingServer hands each call that concerns one object a callContext,
// and tells Terraform that the attributes of setsOnTheWire are sets.
type releasingServer struct {
	frameworkServer
}

// setsOnTheWire are the attributes, by resource type, whose framework type
// holds a framework.UnorderedListType: Terraform is told each list in them
// is a set (a set and a list travel alike between the two).
var setsOnTheWire = map[string][]string{
	role.PermissionsExclusiveTypeName: {"permissions"},
}

// GetProviderSchema is the framework's schema with the attributes of
// setsOnTheWire's lists as sets. An attribute that is no longer there, or
// no longer a list, fails the call, so the two cannot drift apart unseen.
func (s releasingServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := s.frameworkServer.GetProviderSchema(ctx, req)
	if err != nil || resp == nil {
		return resp, err
	}
	schemas := maps.Clone(resp.ResourceSchemas)
	for typeName, attributes := range setsOnTheWire {
		rewritten, err := framework.SetsOnTheWire(schemas[typeName], attributes...)
		if err != nil {
			resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError,
				Summary: "Unable to build the provider's schema", Detail: fmt.Sprintf("%s: %v. This is a bug in the provider; please report it.", typeName, err)})
			continue
		}
		schemas[typeName] = rewritten
	}
	resp.ResourceSchemas = schemas
	return resp, nil
}

// callContext is the context of one call: it forwards to the call's
// context until the call returns, and is done and holds no values after.
type callContext struct {
	ctx atomic.Pointer[context.Context]
}

// ended is what a callContext forwards to once its call returned.
var ended = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

func (c *callContext) current() context.Context    { return *c.ctx.Load() }
func (c *callContext) Deadline() (time.Time, bool) { return c.current().Deadline() }
func (c *callContext) Done() <-chan struct{}       { return c.current().Done() }
func (c *callContext) Err() error                  { return c.current().Err() }
func (c *callContext) Value(key any) any           { return c.current().Value(key) }

// call runs one call with a callContext that lets go of ctx when it returns.
func call[Req, Resp any](ctx context.Context, req Req, rpc func(context.Context, Req) (Resp, error)) (Resp, error) {
	c := &callContext{}
	c.ctx.Store(&ctx)
	defer c.ctx.Store(&ended)
	return rpc(c, req)
}

func (s releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return call(ctx, req, s.frameworkServer.ValidateResourceConfig)
}

func (s releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return call(ctx, req, s.frameworkServer.UpgradeResourceState)
}

func (s releasingServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return call(ctx, req, s.frameworkServer.UpgradeResourceIdentity)
}

func (s releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return call(ctx, req, s.frameworkServer.ReadResource)
}

func (s releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return call(ctx, req, s.frameworkServer.PlanResourceChange)
}

func (s releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return call(ctx, req, s.frameworkServer.ApplyResourceChange)
}

func (s releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return call(ctx, req, s.frameworkServer.ImportResourceState)
}

func (s releasingServer) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return call(ctx, req, s.frameworkServer.MoveResourceState)
}

func (s releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return call(ctx, req, s.frameworkServer.ValidateDataResourceConfig)
}

func (s releasingServer) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return call(ctx, req, s.frameworkServer.GenerateResourceConfig)
}

func (s releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return call(ctx, req, s.frameworkServer.ReadDataSource)
}
