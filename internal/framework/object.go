package framework

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// Object names the objects of a resource an id names, in the diagnostics
// of the delete and the import every such resource ends with.
type Object struct {
	// TypeName is the resource type.
	TypeName string
	// Summary is the object in diagnostic summaries ("resource server").
	Summary string
	// Noun is the object in details ("API").
	Noun string
}

// Delete deletes the object whose id the state holds with del (which takes
// an object already gone as success); a failure says what was tried.
func (o Object) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse, del func(context.Context, string) error) {
	var id types.String
	if resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...); resp.Diagnostics.HasError() {
		return
	}
	if err := del(ctx, id.ValueString()); err != nil {
		resp.Diagnostics.AddError("Unable to delete "+o.Summary, APIErrorDetail(fmt.Sprintf("Deleting the %s %q", o.Noun, id.ValueString()), err))
	}
}

// ReadImported reads, with get, the object an import names (its import ID,
// or the identity's id), after CheckImportID; accepted says what an import
// ID may be. It is nil when there is none or the read failed, which the
// diagnostics then say; else the caller puts what identifies it into the
// state.
func ReadImported[T any](ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, o Object, accepted string,
	get func(context.Context, string) (*T, error)) *T {
	id := ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.Append(CheckImportID(o.TypeName, id, accepted)...); resp.Diagnostics.HasError() {
		return nil
	}
	v, err := get(ctx, id)
	switch {
	case mgmt.IsNotFound(err):
		resp.Diagnostics.AddError("Unable to import "+o.Summary, fmt.Sprintf("No %s in the tenant matches the import ID %q. Use %s.", o.Noun, id, accepted))
		return nil
	case err != nil:
		resp.Diagnostics.AddError("Unable to import "+o.Summary, APIErrorDetail(fmt.Sprintf("Reading the %s %q", o.Noun, id), err))
		return nil
	}
	return v
}
