package resourceserver

import "github.com/tenant-iac/terraform-provider-tenant/internal/framework/planrules"

// resourceServerRules are tenant_resource_server's plan rules: every
// attribute that a configuration may leave out, by class. The schema
// attaches each rule (TestPlanRules_schema checks that they agree, and that
// the resource's page shows this table); TestPlanRules shows each at work.
var resourceServerRules = []planrules.Rule{
	{
		Class:      "assigned",
		Rule:       "The state's value: the tenant sets it.",
		By:         "`UseStateForUnknown`",
		Attributes: []string{"id", "client_id", "is_system"},
	},
	{
		Class: "computed",
		Rule: "The tenant's thumbprint of the key: the state's while `pem` is unchanged; known after apply when `pem` " +
			"changes, in a key added now, and where the state holds none while the plan differs from the state.",
		By:         "`thumbprintPlan`",
		Attributes: []string{"token_encryption.encryption_key.thumbprint_sha256"},
	},
	{
		Class: "default",
		Rule:  "The tenant's default for a new API; removing the argument returns to it.",
		By:    "the schema's `Default`",
		Attributes: []string{
			"signing_alg", "allow_offline_access", "token_lifetime", "skip_consent_for_verifiable_first_party_clients",
			"allow_online_access", "allow_online_access_with_ephemeral_sessions",
			"subject_type_authorization", "subject_type_authorization.user", "subject_type_authorization.client"},
	},
	{
		Class: "derived default",
		Rule: "7200 seconds, or the planned `token_lifetime` when that is shorter (the tenant refuses more), known after " +
			"apply while `token_lifetime` is; removing the argument returns to it.",
		By:         "`webLifetimePlan`",
		Attributes: []string{"token_lifetime_for_web"},
	},
	{
		Class: "kept",
		Rule: "The state's value, none included (known after apply on create): removing the argument leaves the " +
			"tenant's value as it is.",
		By:         "`UseStateForUnknown`",
		Attributes: []string{"name", "token_dialect"},
	},
	{
		Class: "not enforced",
		Rule: "Known after apply on create; then the state's value, none included, but `false` where it is `true`: " +
			"removing `enforce_policies = true` turns enforcement off, and the update sends `false`.",
		By:         "`enforcePoliciesPlan`",
		Attributes: []string{"enforce_policies"},
	},
	{
		Class: "filled",
		Rule: "Inside an object the configuration sets: the state's value when it holds one (removing the argument " +
			"keeps the tenant's); where it holds none, known after apply in an object added now and whenever the plan " +
			"differs from the state, and the update then sends the object again.",
		By: "`UseNonNullStateForUnknown`",
		Attributes: []string{
			"proof_of_possession.required_for", "token_encryption.encryption_key.name", "token_encryption.encryption_key.kid"},
	},
	{
		Class:      "cleared",
		Rule:       "None: removing the argument clears the value on the tenant (`scopes` are all removed).",
		By:         "no rule",
		Attributes: []string{"scopes", "consent_policy", "authorization_details", "proof_of_possession", "token_encryption", "authorization_policy"},
	},
	{
		Class: "secret",
		Rule: "None: the state holds the secret only while the configuration sets it; removing the argument sends " +
			"nothing, so the tenant keeps its secret.",
		By:         "no rule; the update does not send a removed secret",
		Attributes: []string{"signing_secret"},
	},
	{
		Class: "write-only",
		Rule: "None, always: the value is in no plan or state; it is sent on create and when `signing_secret_wo_version` " +
			"changes, and removing it sends nothing, so the tenant keeps its secret.",
		By:         "`WriteOnly`",
		Attributes: []string{"signing_secret_wo"},
	},
	{
		Class:      "switch",
		Rule:       "None: the resource's own setting, never sent; removing it changes nothing on the tenant.",
		By:         "no rule",
		Attributes: []string{"signing_secret_wo_version"},
	},
}
