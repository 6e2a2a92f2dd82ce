package tenantaction

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TypeName is the resource type.
const TypeName = "tenant_action"

// defaultRuntime is the runtime the API gives an action created without one
// (reference §2, node22 in 2026); removing runtime returns to it.
const defaultRuntime = "node22"

// maxDependencies is how many npm modules an action may have: the
// platform's Actions limitations page [R] ("Each Action may have a maximum
// of 10 npm modules"); the reference does not state it. Past it, a plan
// ends at once; the framework would otherwise take minutes to plan a map
// of thousands.
const maxDependencies = 10

// defaultTimeout bounds a create or an update (the build, then the deploy)
// when the configuration sets no timeouts.
const defaultTimeout = 10 * time.Minute

var (
	// Runtimes are the runtimes an action may use: node22 (the default),
	// node18 and node18-actions, which reference §2 observes accepted (the
	// last one in a May 2026 recording: read back as sent, built and
	// deployed). Assumption: no other runtime is.
	Runtimes = []string{"node18", "node18-actions", "node22"}

	// TriggerIDs are the triggers an action may support (an assumption
	// beyond custom-token-exchange: see mgmt.ActionTriggerIDs).
	TriggerIDs = mgmt.ActionTriggerIDs

	// npmName is npm's rule for the names of packages it holds
	// (validate-npm-package-name's validForOldPackages, as the emulator
	// applies it): URL-safe, optionally scoped, not starting with a dot or
	// an underscore. Names of new packages are lower case as well, but older
	// published ones are not (JSONStream), and they install.
	npmName = regexp.MustCompile(`^(@[A-Za-z0-9~!*'()-][A-Za-z0-9._~!*'()-]*/)?[A-Za-z0-9~!*'()-][A-Za-z0-9._~!*'()-]*$`)

	// uuid is the form of action ids (reference §0.2: UUID v4).
	uuid = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

	httpURL = regexp.MustCompile(`^https?://[^\s/]+\S*$`)
)

func (r *actionResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keepString := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An action: Node.js code that the tenant runs at a trigger, such as the `custom-token-exchange` " +
			"action that a `tenant_token_exchange_profile` needs. The tenant builds the code (installing its dependencies) " +
			"after every create and change; Terraform waits until the build is done and, with `deploy = true` (the default), " +
			"deploys it and waits until that version is deployed. How long it waits is set by `timeouts` " +
			"(10 minutes for each of create and update by default).\n\n" +
			"Secret values are never returned by the tenant. Set them with `secrets` (the values are kept in the state, " +
			"and only a change of names made outside Terraform is seen), or with the write-only `secrets_wo` and " +
			"`secrets_wo_version` (Terraform 1.11 or later; the values are in neither the plan nor the state, and are sent " +
			"again whenever `secrets_wo_version` changes).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The action's ID (a UUID). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       keepString,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The action's name, 1 to 255 characters. Updated in place (the action is then built, and deployed, again).",
				Required:            true,
				Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
			},
			"code": schema.StringAttribute{
				MarkdownDescription: "The action's JavaScript source. For the `custom-token-exchange` trigger it exports " +
					"`onExecuteCustomTokenExchange(event, api)`. Updated in place: the new code is built and, with `deploy = true`, deployed.",
				Required: true,
			},
			"runtime": schema.StringAttribute{
				MarkdownDescription: "The Node.js runtime: `node22`, `node18` or `node18-actions`. Defaults to `" + defaultRuntime + "`, the tenant's " +
					"default; removing it returns to `" + defaultRuntime + "`. Updated in place.",
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(defaultRuntime),
				Validators: []validator.String{stringvalidator.OneOf(Runtimes...)},
			},
			"dependencies": schema.MapNestedAttribute{
				MarkdownDescription: "npm packages the code requires, keyed by the package's npm name (e.g. `jose` or " +
					"`@scope/name`: URL-safe characters, at most 214); 1 to 10 when set (the platform's documented limit of " +
					"npm modules per action). A dependency that cannot be installed makes the build fail. Removing the argument " +
					"removes every dependency. (In a map written out in HCL, Terraform keeps the last of a key written twice.)",
				Optional: true,
				Validators: []validator.Map{
					// The platform's Actions limitations page [R] allows at most 10
					// npm modules per action (the reference does not state it).
					mapvalidator.SizeBetween(1, maxDependencies),
					mapvalidator.KeysAre(
						stringvalidator.UTF8LengthBetween(1, 214),
						stringvalidator.RegexMatches(npmName, "must be an npm package name: letters, digits and "+
							"-._~!*'(), optionally scoped as @scope/name, not starting with '.' or '_'"),
					),
				},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"version": schema.StringAttribute{
						MarkdownDescription: "The version to install (e.g. `5.9.6`, or `latest`).",
						Required:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
					"registry_url": schema.StringAttribute{
						MarkdownDescription: "The npm registry to install the package from (an `http://` or `https://` URL). " +
							"When not set, the tenant's default registry is used.",
						Optional:   true,
						Validators: []validator.String{stringvalidator.RegexMatches(httpURL, "must be an http:// or https:// URL")},
					},
				}},
			},
			"supported_triggers": schema.SingleNestedAttribute{
				MarkdownDescription: "The trigger the action runs at (an action is used by exactly one trigger). Changing " +
					"`id` replaces the action; changing `version` updates it in place.",
				Required: true,
				Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{
						MarkdownDescription: "The trigger: `" + strings.Join(TriggerIDs, "`, `") + "`. Changing it replaces the action.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.OneOf(TriggerIDs...)},
						PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
					},
					"version": schema.StringAttribute{
						MarkdownDescription: "The trigger's version (e.g. `v1` for `custom-token-exchange`). Updated in place.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
				},
			},
			// A list, not a set: the framework's TRACE logs name a set
			// element by its whole value, the secret's included.
			"secrets": schema.ListNestedAttribute{
				MarkdownDescription: "Secrets the code reads as `event.secrets.<name>`, each name once; at least one when set. " +
					"The values are kept in the state (the tenant never returns them), so only a change of names made outside " +
					"Terraform shows as drift; reordering the list sends the secrets again. Conflicts with `secrets_wo`. Removing the argument (without setting `secrets_wo`) " +
					"removes every secret from the action.",
				Optional:   true,
				Validators: []validator.List{listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{
						MarkdownDescription: "The secret's name.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
					"value": schema.StringAttribute{
						MarkdownDescription: "The secret's value.",
						Required:            true,
						Sensitive:           true,
					},
				}},
			},
			"secrets_wo": schema.ListNestedAttribute{
				MarkdownDescription: "Write-only secrets (Terraform 1.11 or later): the same shape as `secrets`, but the values " +
					"are stored in neither the plan nor the state. They are sent on create and whenever `secrets_wo_version` " +
					"changes, and then replace every secret of the action. Requires `secrets_wo_version`; conflicts with `secrets`. " +
					"Removing it together with `secrets_wo_version` removes every secret from the action.",
				Optional:  true,
				WriteOnly: true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ConflictsWith(path.MatchRoot("secrets")),
				},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{
						MarkdownDescription: "The secret's name.",
						Required:            true,
						WriteOnly:           true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
					"value": schema.StringAttribute{
						MarkdownDescription: "The secret's value.",
						Required:            true,
						WriteOnly:           true,
						Sensitive:           true,
					},
				}},
			},
			"secrets_wo_version": schema.Int64Attribute{
				MarkdownDescription: "A number to change (e.g. increment) whenever `secrets_wo` should be sent again, for " +
					"example to rotate a value: Terraform cannot see a change of write-only values. Requires `secrets_wo`. " +
					"An import of an action that has secrets sets it to `0`: write `secrets_wo` with the values and " +
					"`secrets_wo_version = 0`, and the first apply sends nothing (the tenant keeps its values and the action is " +
					"not deployed again); change it later to send them.",
				Optional: true,
			},
			"deploy": schema.BoolAttribute{
				MarkdownDescription: "Whether to deploy the action after every create and update, and whenever its latest " +
					"changes are not deployed (for example after an edit in the tenant's editor). Defaults to `true`; removing " +
					"it returns to `true`. With `false` the code is built but not deployed.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"force_destroy": schema.BoolAttribute{
				MarkdownDescription: "Whether destroying the action asks the tenant to delete it even while the tenant holds it " +
					"in use (bound to a trigger's flow): the API's `force`. Defaults to `false`: the tenant refuses, and the " +
					"destroy says why, naming the trigger. Not needed when a `tenant_trigger_actions` of the same configuration " +
					"drops the action in the same apply: the action is then unbound before its delete (see " +
					"`tenant_trigger_actions`). It does not " +
					"skip the provider's own check that no token exchange profile uses a `custom-token-exchange` action: that is " +
					"`skip_profile_check`; deleting an action a profile uses needs that, and this too when the tenant refuses to " +
					"delete an action in use. Removing it returns to `false`. Sends no " +
					"request by itself.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"skip_profile_check": schema.BoolAttribute{
				MarkdownDescription: "Whether destroying a `custom-token-exchange` action skips the provider's own check that no " +
					"token exchange profile uses it (a list of the tenant's profiles: it needs `read:token_exchange_profiles`). " +
					"Defaults to `false`: the destroy is refused, naming the profiles, when one does, and when the profiles " +
					"cannot be listed for want of that scope. Set it for credentials without the scope. A profile that uses an " +
					"action deleted this way is left naming the deleted action, and token exchange through it fails until its " +
					"`action_id` changes. Actions for other " +
					"triggers are never checked. Sends no request by itself.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The build status of the action's latest code: `built` after a successful apply; " +
					"`pending`, `building`, `packaged` or `retrying` while the tenant builds it, `failed` when the build failed.",
				Computed: true,
			},
			"version_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the deployed version (null until the action is first deployed).",
				Computed:            true,
			},
			"deployed_version": schema.Int64Attribute{
				MarkdownDescription: "The number of the deployed version (null until the action is first deployed).",
				Computed:            true,
			},
			"all_changes_deployed": schema.BoolAttribute{
				MarkdownDescription: "Whether the action's latest code is the deployed one. `false` after a change that is not " +
					"deployed; with `deploy = true` the next apply deploys it.",
				Computed: true,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the action was created (ISO 8601, UTC).",
				Computed:            true,
				PlanModifiers:       keepString,
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the action was last changed (ISO 8601, UTC).",
				Computed:            true,
			},
			"timeouts": timeoutsAttribute(ctx),
		},
	}
}

// timeoutsAttribute is the timeouts module's attribute with a description.
func timeoutsAttribute(ctx context.Context) schema.Attribute {
	a := timeouts.Attributes(ctx, timeouts.Opts{
		Create:            true,
		Update:            true,
		CreateDescription: "How long a create may take, the build and the deploy included (a duration such as `\"15m\"`). Defaults to 10 minutes.",
		UpdateDescription: "How long an update may take, the build and the deploy included (a duration such as `\"15m\"`). Defaults to 10 minutes.",
	})
	if n, ok := a.(schema.SingleNestedAttribute); ok {
		n.MarkdownDescription = "How long Terraform waits for the tenant to build and deploy the action. A wait that runs out " +
			"is an error that names the status the action was left in; the action stays in the state."
		return n
	}
	return a
}
