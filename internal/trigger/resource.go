package trigger

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var (
	_ resource.Resource                   = (*bindingsResource)(nil)
	_ resource.ResourceWithConfigure      = (*bindingsResource)(nil)
	_ resource.ResourceWithImportState    = (*bindingsResource)(nil)
	_ resource.ResourceWithIdentity       = (*bindingsResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*bindingsResource)(nil)
	_ resource.ResourceWithValidateConfig = (*bindingsResource)(nil)
)

// NewResource returns the tenant_trigger_actions resource.
func NewResource() resource.Resource { return &bindingsResource{} }

type bindingsResource struct {
	framework.WithTenant
}

func (r *bindingsResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *bindingsResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The trigger's id, such as post-login.")
}

func (r *bindingsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m bindingsModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if r.write(ctx, &m, "create", &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	}
}

func (r *bindingsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m bindingsModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	trigger := m.Trigger.ValueString()
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: types.StringValue(trigger)}, &resp.Diagnostics)
	// A trigger always exists: a trigger without bindings is an empty list,
	// never a 404, so the resource is never removed from the state here.
	bindings, err := r.Tenant.Bindings.Read(ctx, trigger)
	if err != nil {
		resp.Diagnostics.AddError("Unable to read trigger actions", framework.APIErrorDetail(fmt.Sprintf("Reading the bindings of the trigger %q", trigger), err))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, trigger, bindings)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	// The mark reaches the destroy of a deposed object, which Terraform
	// plans again during the apply from the refreshed state.
	superseded := []byte(nil)
	if r.Tenant.Bindings.Refreshed(trigger) {
		superseded = []byte("true")
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, supersededKey, superseded)...)
}

func (r *bindingsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m bindingsModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if r.write(ctx, &m, "update", &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	}
}

// Delete unbinds every action of the trigger: a PATCH with an empty list.
// The destroy of a replacement planned to unbind the actions its plan
// deletes (replaceToUnbind) unbinds only those, and leaves the trigger
// running the others until the create binds the new list. The destroy of
// a superseded object (planned so, or after this run wrote the trigger:
// the old object of a create_before_destroy replacement) sends nothing:
// the trigger is the other object's.
func (r *bindingsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m bindingsModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	trigger := m.Trigger.ValueString()
	superseded, diags := req.Private.GetKey(ctx, supersededKey)
	resp.Diagnostics.Append(diags...)
	if len(superseded) > 0 || r.Tenant.Bindings.Written(trigger) {
		return
	}
	unbind, diags := unbindList(ctx, req.Private)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	if len(unbind) == 0 {
		if _, err := r.Tenant.API.UpdateTriggerBindings(ctx, trigger, nil); err != nil {
			resp.Diagnostics.AddError("Unable to delete trigger actions", framework.APIErrorDetail(fmt.Sprintf("Unbinding every action of the trigger %q", trigger), err))
		}
		return
	}
	body, d := m.toAPI(ctx)
	if resp.Diagnostics.Append(d...); resp.Diagnostics.HasError() {
		return
	}
	body = slices.DeleteFunc(body, func(b mgmt.BindingUpdate) bool { return slices.Contains(unbind, b.Ref.Value) })
	if err := r.unbindOnly(ctx, trigger, body); err != nil {
		resp.Diagnostics.AddError("Unable to update trigger actions", framework.APIErrorDetail(fmt.Sprintf(
			"Unbinding the actions this apply deletes (%s) from the trigger %q", strings.Join(unbind, ", "), trigger), err))
	}
}

// unbindOnly writes keep, the bindings of the state without the actions a
// replacement's destroy unbinds. With bindings that name their actions by
// literal ids (not references, which order the destroy before the deletes),
// another action of that list that this apply deletes may be gone already:
// its destroy, planned after these bindings, deleted it with the tenant
// unbinding it, in no set order with this write. The tenant refuses a list
// that names a missing action (the emulator answers 404; the reference does
// not say, so a 400 is taken the same way): the write is sent again with
// only the actions the trigger still binds, read after the refusal, as long
// as that list gets shorter.
func (r *bindingsResource) unbindOnly(ctx context.Context, trigger string, keep []mgmt.BindingUpdate) error {
	// The deletes the tenant refused wait for the whole of it, not for one
	// of its writes (AfterWrites).
	defer r.Tenant.Bindings.Writing(trigger)()
	for {
		_, err := r.Tenant.API.UpdateTriggerBindings(ctx, trigger, keep)
		if !mgmt.IsNotFound(err) && !mgmt.IsBadRequest(err) || len(keep) == 0 {
			return err
		}
		current, rerr := r.Tenant.API.TriggerBindings(ctx, trigger)
		if rerr != nil {
			tflog.Warn(ctx, "reading the trigger's bindings after a refused write failed", map[string]any{"trigger": trigger, "error": rerr.Error()})
			return err
		}
		still := slices.DeleteFunc(slices.Clone(keep), func(b mgmt.BindingUpdate) bool {
			return !slices.ContainsFunc(current, func(c mgmt.TriggerBinding) bool { return c.Action.ID == b.Ref.Value })
		})
		if len(still) == len(keep) {
			return err
		}
		keep = still
	}
}

// ImportState accepts the trigger's id (or an identity's id).
func (r *bindingsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	accepted := "the trigger's id: " + strings.Join(triggers(), ", ")
	id := framework.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.Append(framework.CheckImportID(TypeName, id, accepted)...); resp.Diagnostics.HasError() {
		return
	}
	if !slices.Contains(triggers(), id) {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("The import ID %q for %s is not a trigger whose bindings it manages. %sUse %s.",
			id, TypeName, entityBoundNote(id), accepted))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("trigger"), id)...)
}

// write sends the planned bindings (the whole list) and sets m from the
// answer; it reports whether the trigger holds them.
func (r *bindingsResource) write(ctx context.Context, m *bindingsModel, op string, diags *diag.Diagnostics) bool {
	trigger := m.Trigger.ValueString()
	body, d := m.toAPI(ctx)
	if diags.Append(d...); diags.HasError() {
		return false
	}
	bindings, err := r.Tenant.API.UpdateTriggerBindings(ctx, trigger, body)
	if err != nil {
		diags.AddError("Unable to "+op+" trigger actions", framework.APIErrorDetail(fmt.Sprintf("Binding %d action(s) to the trigger %q", len(body), trigger), err))
		return false
	}
	r.Tenant.Bindings.Wrote(trigger)
	diags.Append(m.fromAPI(ctx, trigger, bindings)...)
	return !diags.HasError()
}
