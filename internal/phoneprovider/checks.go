package phoneprovider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// ConfigValidators refuses the write-only credentials without their
// version, and a version without them.
func (r *providerResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{framework.WriteOnlyPairs(framework.WriteOnly{
		Value: "credentials_wo",
		Hint: "The tenant never returns credentials, so a Twilio provider taken over by an import or by generated configuration " +
			"needs them written here: add credentials_wo = { auth_token = \"...\" }. With credentials_wo_version = 0 (what the " +
			"import set) the apply sends nothing; change it to send the token. A custom provider has none: remove credentials_wo_version.",
	})}
}

// ValidateConfig refuses, before any request, what each provider needs and
// what it does not use: Twilio needs its account SID, a sender (default_from
// or mssid; a create without default_from was refused, reference §5) and an
// auth token; a custom provider has no Twilio settings and no credentials.
func (r *providerResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m resourceModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() || m.Name.IsUnknown() || m.Configuration.IsUnknown() {
		return
	}
	var c configurationModel
	if !m.Configuration.IsNull() {
		if resp.Diagnostics.Append(m.Configuration.As(ctx, &c, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...); resp.Diagnostics.HasError() {
			return
		}
	}
	cfg := path.Root("configuration")
	set := func(v types.String) bool { return !v.IsNull() }
	switch m.Name.ValueString() {
	case mgmt.PhoneTwilio:
		if !set(c.SID) {
			resp.Diagnostics.AddAttributeError(cfg.AtName("sid"), "Missing attribute", "Attribute configuration.sid, the Twilio account SID, must be set when name is \"twilio\".")
		}
		if !set(c.DefaultFrom) && !set(c.MSSID) {
			resp.Diagnostics.AddAttributeError(cfg.AtName("default_from"), "Missing attribute",
				"Attribute configuration.default_from (the number messages are sent from) or configuration.mssid (a Twilio messaging service SID) must be set when name is \"twilio\"; the tenant refuses a Twilio provider without a sender.")
		}
		if m.CredentialsWO.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("credentials_wo"), "Missing attribute",
				"Attribute credentials_wo (with auth_token, the Twilio auth token) must be set when name is \"twilio\". It is write-only: Terraform keeps it in neither the plan nor the state.")
		}
	case mgmt.PhoneCustom:
		for name, v := range map[string]types.String{"sid": c.SID, "default_from": c.DefaultFrom, "mssid": c.MSSID} {
			if set(v) {
				resp.Diagnostics.AddAttributeError(cfg.AtName(name), "Invalid attribute combination", fmt.Sprintf(
					"Attribute configuration.%s is a Twilio setting, only used when name is \"twilio\"; got name = \"custom\". Remove it, or set name = \"twilio\".", name))
			}
		}
		if !m.CredentialsWO.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("credentials_wo"), "Invalid attribute combination",
				"Attribute credentials_wo holds a Twilio auth token, only used when name is \"twilio\"; a custom provider has no credentials. Remove credentials_wo and credentials_wo_version, or set name = \"twilio\".")
		}
	}
}

// ModifyPlan refuses, at plan, a create in a tenant that has a phone
// provider already (a tenant has one, reference §5), with the command that
// imports it; the provider this resource replaces does not count.
func (r *providerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Tenant.Configured() {
		return
	}
	own := framework.ManagedID(ctx, req, resp)
	if !req.State.Raw.IsNull() {
		return
	}
	p, err := r.Tenant.API.FindPhoneProvider(ctx)
	switch {
	case err != nil:
		framework.CheckSkipped(&resp.Diagnostics, path.Root("name"), "whether the tenant has a phone provider", err)
	case p != nil && p.ID != own:
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Unable to create phone provider", existsDetail(p)+
			"\nIf this configuration manages it under another address, rename it with a moved block instead.")
	}
}
