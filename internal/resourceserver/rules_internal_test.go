package resourceserver

import (
	"cmp"
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planrules/planrulestest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// ruleAnswer is an API as the tenant answers one created with
// ruleConfig(""), ended with the fields of more.
func ruleAnswer(more string) string {
	return `{"id":"0123456789abcdef01234567","identifier":"https://api.example.com","name":"API","signing_alg":"RS256",
"token_lifetime":86400,"token_lifetime_for_web":7200,"allow_offline_access":false,
"skip_consent_for_verifiable_first_party_clients":false,"is_system":false` + more + `}`
}

// ruleConfig is a configuration with the arguments of more.
func ruleConfig(more string) string {
	return `{"identifier":"https://api.example.com","name":"API"` + more + `}`
}

// dpop and key are objects of a configuration.
const (
	dpop = `"proof_of_possession":{"mechanism":"dpop","required":true}`
	key  = `"token_encryption":{"format":"compact-nested-jwe","encryption_key":{"alg":"RSA-OAEP-256","pem":"PEM-A"}}`
)

// TestPlanRules: rules of resourceServerRules at work, through the
// framework's PlanResourceChange with the proposal Terraform makes:
// (configuration, state the resource wrote from the tenant's answer) →
// plan, and the request the update then sends. The plan is the state but
// for the paths of want ("?" is known after apply); a create checks the
// paths of want only.
func TestPlanRules(t *testing.T) {
	for _, tc := range []struct {
		name           string
		config, answer string // the answer is empty for a create
		was            string // the configuration the state was written from: config when empty
		want           map[string]string
		sends          string
	}{
		{
			name:   "no change: the plan is the state",
			config: ruleConfig(""), answer: ruleAnswer(""), sends: `{}`,
		},
		{
			name:   "default: token_lifetime removed returns to 86400, and token_lifetime_for_web with it to 7200",
			config: ruleConfig(""), answer: ruleAnswer(`,"token_lifetime":600,"token_lifetime_for_web":600`),
			want:  map[string]string{"token_lifetime": "86400", "token_lifetime_for_web": "7200"},
			sends: `{"token_lifetime":86400,"token_lifetime_for_web":7200}`,
		},
		{
			name:   "derived default: a shorter token_lifetime brings token_lifetime_for_web down",
			config: ruleConfig(`,"token_lifetime":600`), answer: ruleAnswer(""),
			want:  map[string]string{"token_lifetime": "600", "token_lifetime_for_web": "600"},
			sends: `{"token_lifetime":600,"token_lifetime_for_web":600}`,
		},
		{
			name:   "default: subject_type_authorization removed returns to the tenant's default",
			config: ruleConfig(""), answer: ruleAnswer(`,"subject_type_authorization":{"user":{"policy":"deny_all"},"client":{"policy":"deny_all"}}`),
			want: map[string]string{"subject_type_authorization.user.policy": `"allow_all"`,
				"subject_type_authorization.client.policy": `"require_client_grant"`},
			sends: `{"subject_type_authorization":{"user":{"policy":"allow_all"},"client":{"policy":"require_client_grant"}}}`,
		},
		{
			name:   "kept: name and token_dialect left out keep the tenant's while signing_alg changes",
			config: `{"identifier":"https://api.example.com","signing_alg":"RS512"}`, answer: ruleAnswer(`,"token_dialect":"rfc9068_profile"`),
			want:  map[string]string{"signing_alg": `"RS512"`},
			sends: `{"signing_alg":"RS512"}`,
		},
		{
			name:   "not enforced: enforce_policies = true removed plans false",
			config: ruleConfig(""), answer: ruleAnswer(`,"enforce_policies":true`),
			want:  map[string]string{"enforce_policies": "false"},
			sends: `{"enforce_policies":false}`,
		},
		{
			name:   "not enforced: a none the tenant answered stays none while the name changes",
			config: `{"identifier":"https://api.example.com","name":"B"}`, answer: ruleAnswer(""),
			want:  map[string]string{"name": `"B"`},
			sends: `{"name":"B"}`,
		},
		{
			name:   "cleared: scopes and consent_policy removed",
			config: ruleConfig(""), answer: ruleAnswer(`,"scopes":[{"value":"read:a"}],"consent_policy":"transactional-authorization-with-mfa"`),
			want:  map[string]string{"scopes": "null", "consent_policy": "null"},
			sends: `{"scopes":[],"consent_policy":null}`,
		},
		{
			name:   "cleared: token_encryption removed turns encryption off",
			config: ruleConfig(""), was: ruleConfig("," + key),
			answer: ruleAnswer(`,"token_encryption":{"format":"compact-nested-jwe","encryption_key":{"name":"k","kid":"k1","alg":"RSA-OAEP-256","thumbprint_sha256":"t1"}}`),
			want:   map[string]string{"token_encryption": "null"},
			sends:  `{"token_encryption":null}`,
		},
		{
			name:   "cleared: proof_of_possession removed, required_for the tenant filled with it",
			config: ruleConfig(""), was: ruleConfig("," + dpop),
			answer: ruleAnswer(`,"proof_of_possession":{"mechanism":"dpop","required":true,"required_for":"all_clients"}`),
			want:   map[string]string{"proof_of_possession": "null"},
			sends:  `{"proof_of_possession":null}`,
		},
		{
			name:   "cleared: authorization_policy removed",
			config: ruleConfig(""), answer: ruleAnswer(`,"authorization_policy":{"policy_id":"pol_0123"}`),
			want:  map[string]string{"authorization_policy": "null"},
			sends: `{"authorization_policy":null}`,
		},
		{
			name:   "cleared: authorization_details removed",
			config: ruleConfig(""), answer: ruleAnswer(`,"authorization_details":[{"type":"payment_initiation"}]`),
			want:  map[string]string{"authorization_details": "null"},
			sends: `{"authorization_details":null}`,
		},
		{
			name:   "filled: required_for left out keeps the tenant's while the name changes",
			config: `{"identifier":"https://api.example.com","name":"B",` + dpop + `}`,
			answer: ruleAnswer(`,"proof_of_possession":{"mechanism":"dpop","required":true,"required_for":"all_clients"}`),
			want:   map[string]string{"name": `"B"`},
			sends:  `{"name":"B"}`,
		},
		{
			name:   "filled: a none the tenant answered is known after apply when anything changes, and the object sent again",
			config: `{"identifier":"https://api.example.com","name":"B",` + dpop + `}`,
			answer: ruleAnswer(`,"proof_of_possession":{"mechanism":"dpop","required":true}`),
			want:   map[string]string{"name": `"B"`, "proof_of_possession.required_for": "?"},
			sends:  `{"name":"B","proof_of_possession":{"mechanism":"dpop","required":true}}`,
		},
		{
			name:   "computed: the thumbprint is the state's while pem is unchanged",
			config: `{"identifier":"https://api.example.com","name":"B",` + key + `}`, was: ruleConfig("," + key),
			answer: ruleAnswer(`,"token_encryption":{"format":"compact-nested-jwe","encryption_key":{"name":"k","kid":"k1","alg":"RSA-OAEP-256","thumbprint_sha256":"t1"}}`),
			want:   map[string]string{"name": `"B"`},
			sends:  `{"name":"B"}`,
		},
		{
			name:   "computed: the thumbprint is known after apply when pem changes",
			config: ruleConfig("," + key[:len(key)-8] + `PEM-B"}}`), was: ruleConfig("," + key),
			answer: ruleAnswer(`,"token_encryption":{"format":"compact-nested-jwe","encryption_key":{"name":"k","kid":"k1","alg":"RSA-OAEP-256","thumbprint_sha256":"t1"}}`),
			want: map[string]string{"token_encryption.encryption_key.pem": `"PEM-B"`,
				"token_encryption.encryption_key.thumbprint_sha256": "?"},
			sends: `{"token_encryption":{"format":"compact-nested-jwe","encryption_key":{"name":"k","alg":"RSA-OAEP-256","kid":"k1","pem":"PEM-B"}}}`,
		},
		{
			name:   "secret: signing_secret removed leaves the state and is not sent",
			config: ruleConfig(`,"signing_alg":"HS256"`), was: ruleConfig(`,"signing_alg":"HS256","signing_secret":"0123456789abcdef"`),
			answer: ruleAnswer(`,"signing_alg":"HS256","signing_secret":"0123456789abcdef"`),
			want:   map[string]string{"signing_secret": "null"},
			sends:  `{}`,
		},
		{
			name:   "create: what the configuration leaves out is the tenant's default or known after apply",
			config: ruleConfig(""),
			want: map[string]string{"id": "?", "client_id": "?", "is_system": "?", "name": `"API"`, "signing_alg": `"RS256"`,
				"token_lifetime": "86400", "token_lifetime_for_web": "7200", "allow_online_access": "false",
				"enforce_policies": "?", "token_dialect": "?", "scopes": "null", "signing_secret": "null",
				"subject_type_authorization.user.policy": `"allow_all"`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			var sr resource.SchemaResponse
			NewResource().Schema(ctx, resource.SchemaRequest{}, &sr)
			typ := sr.Schema.Type().TerraformType(ctx)
			value := func(js string) tftypes.Value {
				v, err := tftypes.ValueFromJSONWithOpts([]byte(js), typ, tftypes.ValueFromJSONOpts{})
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			config, prior := value(tc.config), tftypes.NewValue(typ, nil)
			if tc.answer != "" {
				// The state the resource writes from the answer to the
				// configuration it was applied with, as Create and Update do.
				var s mgmt.ResourceServer
				if err := json.Unmarshal([]byte(tc.answer), &s); err != nil {
					t.Fatal(err)
				}
				var m resourceModel
				diags := tfsdk.Config{Schema: sr.Schema, Raw: value(cmp.Or(tc.was, tc.config))}.Get(ctx, &m)
				diags.Append(m.fromAPI(ctx, &s)...)
				st := tfsdk.State{Schema: sr.Schema, Raw: prior}
				if diags.Append(st.Set(ctx, &m)...); diags.HasError() {
					t.Fatal(diags)
				}
				prior = st.Raw
			}
			srv, err := planrulestest.Server(NewResource)
			if err != nil {
				t.Fatal(err)
			}
			planned, err := planrulestest.Plan(srv, TypeName, sr.Schema, config, prior, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range planrulestest.Differences(planned, prior, tc.want) {
				t.Error(d)
			}
			if tc.answer == "" {
				return
			}
			// The update's request, as Update builds it.
			var plan, state resourceModel
			var secretWO types.String
			diags := tfsdk.Plan{Schema: sr.Schema, Raw: planned}.Get(ctx, &plan)
			diags.Append(tfsdk.State{Schema: sr.Schema, Raw: prior}.Get(ctx, &state)...)
			diags.Append(tfsdk.Config{Schema: sr.Schema, Raw: config}.GetAttribute(ctx, path.Root("signing_secret_wo"), &secretWO)...)
			u, d := plan.toUpdate(ctx, state.serverModel, secretWO, !plan.SigningSecretWOVer.Equal(state.SigningSecretWOVer))
			if diags.Append(d...); diags.HasError() {
				t.Fatal(diags)
			}
			b, err := json.Marshal(u)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.sends {
				t.Errorf("sends %s\nwant  %s", b, tc.sends)
			}
		})
	}
}
