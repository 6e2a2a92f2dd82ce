// Package trigger is the tenant_trigger_actions resource, data source and
// list resource: the actions bound to a trigger, in execution order.
package trigger

import (
	"context"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TypeName is the resource, data source and list resource type.
const TypeName = "tenant_trigger_actions"

// maxBindings is the most actions a trigger may run: "Each flow may have a
// maximum of 20 active bound Actions" (the Actions limitations page,
// https://auth0.com/docs/customize/actions/limitations; reported, not in
// the reference's recordings).
const maxBindings = 20

// uuid is the form of action ids (reference §0.2: UUID v4).
var uuid = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// triggers are the triggers whose bindings this resource manages: the
// triggers an action may support, but the entity-bound ones.
func triggers() []string {
	var out []string
	for _, t := range mgmt.ActionTriggerIDs {
		if !mgmt.IsEntityBound(t) {
			out = append(out, t)
		}
	}
	return out
}

func (r *bindingsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The actions bound to one trigger, in the order the trigger runs them. Authoritative: the " +
			"trigger runs exactly these actions, so an action bound outside Terraform shows as drift and the next apply " +
			"unbinds it. A change of order or of a display name is one in-place update (the API replaces the whole list). " +
			"Only deployed actions of the trigger can be bound. Destroying this resource unbinds every action of the trigger. " +
			"Actions removed from `actions` and from the configuration in one apply are unbound and deleted in that apply, " +
			"however many: Terraform deletes them before it updates this resource, so either each delete unbinds its " +
			"action, or, when their plans came first, this resource is replaced and its destroy unbinds only those " +
			"actions before their deletes (the plan warns; with `create_before_destroy` the create binds the new list " +
			"first, and the old object's destroy leaves the trigger to it; with `prevent_destroy` Terraform refuses the " +
			"replacement: remove the actions from `actions` in one apply, and from the configuration in the next). Name the actions by reference (`tenant_action.<name>.id`): " +
			"with literal ids Terraform orders nothing between the two, and a delete may need a second apply. Renaming this " +
			"resource needs a `moved` block: without it the plan fails, as the old address's destroy would unbind what the " +
			"new one binds.\n\n" +
			"A `custom-token-exchange` action is bound by its token exchange profile (`tenant_token_exchange_profile.action_id`), " +
			"never by a trigger binding, so that trigger is refused here.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The trigger's id, the same as `trigger`. Never changes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"trigger": schema.StringAttribute{
				MarkdownDescription: "The trigger: `" + strings.Join(triggers(), "`, `") + "`. Changing it unbinds the " +
					"actions of the old trigger and binds them to the new one (a replacement).",
				Required:      true,
				Validators:    []validator.String{stringvalidator.OneOf(mgmt.ActionTriggerIDs...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"actions": schema.ListNestedAttribute{
				MarkdownDescription: "The bound actions, in execution order: the first runs first. Each action once, each " +
					"deployed and supporting `trigger` (for example `tenant_action.<name>.id` of an action with `deploy = true`). " +
					"At most 20, the most a trigger may run. An empty list binds nothing.",
				Required:   true,
				Validators: []validator.List{listvalidator.SizeAtMost(maxBindings)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{
						MarkdownDescription: "The action's ID (a UUID).",
						Required:            true,
						Validators: []validator.String{
							stringvalidator.RegexMatches(uuid, "must be an action id, a UUID such as 5d110643-a54e-432b-a0b7-e58bbf1fae77"),
						},
					},
					"display_name": schema.StringAttribute{
						MarkdownDescription: "The name the trigger's flow shows for the action, at least 1 character (for " +
							"example `tenant_action.<name>.name`).",
						Required:   true,
						Validators: []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
				}},
			},
		},
	}
}
