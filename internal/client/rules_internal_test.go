package client

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planrules/planrulestest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// answered is a client as the tenant answers one created with
// ruleConfig: a jwt_configuration without lifetime_in_seconds, and the
// oidc_logout settings the configuration leaves out filled.
const answered = `{"client_id":"AbCdEfGhIjKlMnOpQrStUvWxYz012345","name":"web","description":"first","app_type":"regular_web",
"is_first_party":true,"oidc_conformant":false,"grant_types":["authorization_code","refresh_token"],
"jwt_configuration":{"alg":"RS256","secret_encoded":false},
"oidc_logout":{"backchannel_logout_urls":["https://app.example.com/logout"],
"backchannel_logout_initiators":{"mode":"custom","selected_initiators":["rp-logout","idp-logout"]},
"backchannel_logout_session_metadata":{"include":false}}`

// ruleConfig is the configuration answered was created from, with the
// arguments of more.
func ruleConfig(more string) string {
	return `{"name":"web","description":"first","jwt_configuration":{"alg":"RS256"},
"oidc_logout":{"backchannel_logout_urls":["https://app.example.com/logout"]}` + more + `}`
}

// TestPlanRules: each rule of clientRules and grantRules at work, through
// the framework's PlanResourceChange with the proposal Terraform makes:
// (configuration, state read from the tenant's answer) → plan, and the
// request the update then sends. The plan is the state but for the paths
// of want ("?" is known after apply); a create checks the paths of want
// only.
func TestPlanRules(t *testing.T) {
	for _, tc := range []struct {
		name           string
		typeName       string // tenant_client when empty
		config, answer string // the answer is null for a create
		inState        bool   // client_secret_in_state in the state
		private        string // the prior private state, as Terraform holds it
		want           map[string]string
		sends          string
	}{
		{
			name:   "no change: the plan is the state, though Terraform proposes the oidc_logout settings left out as null",
			config: ruleConfig(""), answer: answered + `}`, sends: `{}`,
		},
		{
			name:   "default: description changed: nothing else is planned or sent, a none inside an object is kept",
			config: ruleConfig(`,"description":"second"`), answer: answered + `}`,
			want:  map[string]string{"description": `"second"`},
			sends: `{"description":"second"}`,
		},
		{
			name:   "default: description removed returns to none",
			config: strings.Replace(ruleConfig(""), `"description":"first",`, "", 1), answer: answered + `}`,
			want:  map[string]string{"description": `""`},
			sends: `{"description":""}`,
		},
		{
			name:   "filled: alg changed: jwt_configuration is sent, a none the tenant answered is known after apply",
			config: strings.Replace(ruleConfig(""), `"RS256"`, `"HS256"`, 1), answer: answered + `}`,
			want:  map[string]string{"jwt_configuration.alg": `"HS256"`, "jwt_configuration.lifetime_in_seconds": "?"},
			sends: `{"jwt_configuration":{"secret_encoded":false,"alg":"HS256","scopes":{}}}`,
		},
		{
			name:   "kept: app_type and logo_uri left out keep the tenant's, a value and a none",
			config: ruleConfig(`,"description":"second"`), answer: answered + `,"logo_uri":"https://logo"}`,
			want:  map[string]string{"description": `"second"`},
			sends: `{"description":"second"}`,
		},
		{
			name:   "kept: fedcm_login left out keeps the tenant's, though Terraform proposes it as null",
			config: ruleConfig(""), answer: answered + `,"fedcm_login":{"google":{"is_enabled":true}}}`, sends: `{}`,
		},
		{
			name:   "derived default: oidc_conformant left out is the default of the tenant's app_type",
			config: ruleConfig(""), answer: strings.Replace(answered, `"regular_web"`, `"resource_server"`, 1) + `}`,
			want:  map[string]string{"oidc_conformant": "true"},
			sends: `{"oidc_conformant":true}`,
		},
		{
			name:   "derived default: infinite lifetimes follow expiration_type",
			config: ruleConfig(`,"refresh_token":{"expiration_type":"expiring"}`), answer: answered + `}`,
			want: map[string]string{"refresh_token.expiration_type": `"expiring"`, "refresh_token.infinite_token_lifetime": "false",
				"refresh_token.infinite_idle_token_lifetime": "false"},
			sends: `{"refresh_token":{"rotation_type":"non-rotating","expiration_type":"expiring","leeway":0,"token_lifetime":2592000,` +
				`"infinite_token_lifetime":false,"infinite_idle_token_lifetime":false,"idle_token_lifetime":1296000,"policies":[]}}`,
		},
		{
			name:   "filled: session_transfer added: what the configuration leaves out is the tenant's",
			config: ruleConfig(`,"session_transfer":{"can_create_session_transfer_token":true}`), answer: answered + `}`,
			want: map[string]string{"session_transfer.can_create_session_transfer_token": "true",
				"session_transfer.allowed_authentication_methods": "?", "session_transfer.enforce_device_binding": "?",
				"session_transfer.allow_refresh_token": "?", "session_transfer.enforce_online_refresh_tokens": "?",
				"session_transfer.enforce_cascade_revocation": "?", "session_transfer.delegation": "?"},
			sends: `{"session_transfer":{"can_create_session_transfer_token":true}}`,
		},
		{
			name:   "filled: session_transfer changed: the tenant's values are kept and sent, a none is known after apply",
			config: ruleConfig(`,"session_transfer":{"can_create_session_transfer_token":false}`), answer: answered + transfer,
			want: map[string]string{"session_transfer.can_create_session_transfer_token": "false", "session_transfer.delegation": "?"},
			sends: `{"session_transfer":{"can_create_session_transfer_token":false,"allowed_authentication_methods":["cookie"],` +
				`"enforce_device_binding":"ip","allow_refresh_token":false,"enforce_online_refresh_tokens":true,"enforce_cascade_revocation":true}}`,
		},
		{
			name:   "filled: session_transfer unchanged while description changes: its none is kept, nothing of it sent",
			config: ruleConfig(`,"description":"second","session_transfer":{"can_create_session_transfer_token":true}`),
			answer: answered + transfer,
			want:   map[string]string{"description": `"second"`},
			sends:  `{"description":"second"}`,
		},
		{
			name:   "filled: a value set two levels down, unchanged: a none beside it is kept",
			config: ruleConfig(`,"description":"second","session_transfer":{"delegation":{"allow_delegated_access":true}}`),
			answer: answered + `,"session_transfer":{"can_create_session_transfer_token":false,"delegation":{"allow_delegated_access":true}}}`,
			want:   map[string]string{"description": `"second"`},
			sends:  `{"description":"second"}`,
		},
		{
			name:   "filled: a value set two levels down, changed: a none beside it is known after apply",
			config: ruleConfig(`,"session_transfer":{"delegation":{"allow_delegated_access":false}}`),
			answer: answered + `,"session_transfer":{"can_create_session_transfer_token":false,"delegation":{"allow_delegated_access":true}}}`,
			want: map[string]string{"session_transfer.delegation.allow_delegated_access": "false",
				"session_transfer.delegation.enforce_device_binding": "?", "session_transfer.allowed_authentication_methods": "?",
				"session_transfer.enforce_device_binding": "?", "session_transfer.allow_refresh_token": "?",
				"session_transfer.enforce_online_refresh_tokens": "?", "session_transfer.enforce_cascade_revocation": "?"},
			sends: `{"session_transfer":{"can_create_session_transfer_token":false,"delegation":{"allow_delegated_access":false}}}`,
		},
		{
			name:   "cleared where the tenant lets go: scopes removed: known after apply, jwt_configuration sent without them",
			config: ruleConfig(""), answer: strings.Replace(answered, `"secret_encoded":false}`, `"secret_encoded":false,"scopes":{"openid":"x"}}`, 1) + `}`,
			want:  map[string]string{"jwt_configuration.scopes": "?", "jwt_configuration.lifetime_in_seconds": "?"},
			sends: `{"jwt_configuration":{"secret_encoded":false,"alg":"RS256","scopes":{}}}`,
		},
		{
			name:   "cleared where the tenant lets go: scopes the tenant kept at their removal are the state's",
			config: ruleConfig(""), answer: strings.Replace(answered, `"secret_encoded":false}`, `"secret_encoded":false,"scopes":{"openid":"x"}}`, 1) + `}`,
			private: `{"tenant_kept:jwt_configuration.scopes":"dHJ1ZQ=="}`,
			sends:   `{}`,
		},
		{
			name:   "cleared: callbacks removed sends none",
			config: ruleConfig(""), answer: answered + `,"callbacks":["https://app.example.com/cb"]}`,
			want:  map[string]string{"callbacks": "null"},
			sends: `{"callbacks":[]}`,
		},
		{
			name:   "cleared: compliance_level removed sends null",
			config: ruleConfig(""), answer: answered + `,"compliance_level":"fapi1"}`,
			want:  map[string]string{"compliance_level": "null"},
			sends: `{"compliance_level":null}`,
		},
		{
			name:   "shown: grant_types set is sent",
			config: ruleConfig(`,"grant_types":["client_credentials"]`), answer: answered + `}`,
			want:  map[string]string{"grant_types": `["client_credentials"]`},
			sends: `{"grant_types":["client_credentials"]}`,
		},
		{
			name:   "shown: grant_types no answer showed, nothing changes: none",
			config: ruleConfig(""), answer: withoutGrantTypes(answered) + `}`, sends: `{}`,
		},
		{
			name:   "shown: grant_types no answer showed, description changes: known after apply",
			config: ruleConfig(`,"description":"second"`), answer: withoutGrantTypes(answered) + `}`,
			want:  map[string]string{"description": `"second"`, "grant_types": "?"},
			sends: `{"description":"second"}`,
		},
		{
			name:   "shown: grant_types no answer showed, only a rule changes a value: known after apply",
			config: ruleConfig(""), answer: strings.Replace(withoutGrantTypes(answered), `"oidc_conformant":false`, `"oidc_conformant":true`, 1) + `}`,
			want:  map[string]string{"oidc_conformant": "false", "grant_types": "?"},
			sends: `{"oidc_conformant":false}`,
		},
		{
			name:   "secret: client_secret_in_state switched on: the secret is known after apply, nothing is sent",
			config: ruleConfig(`,"client_secret_in_state":true`), answer: answered + `}`,
			want:  map[string]string{"client_secret_in_state": "true", "client_secret": "?"},
			sends: `{}`,
		},
		{
			name:   "create: what the configuration leaves out is the tenant's default or known after apply",
			config: ruleConfig(""),
			want: map[string]string{"id": "?", "description": `"first"`, "app_type": "?", "oidc_conformant": "false",
				"grant_types": "?", "jwt_configuration.alg": `"RS256"`, "jwt_configuration.lifetime_in_seconds": "?",
				"jwt_configuration.secret_encoded": "?", "jwt_configuration.scopes": "null", "oidc_logout.backchannel_logout_initiators": "?",
				"refresh_token.infinite_token_lifetime": "true", "callbacks": "null", "client_secret": "null"},
		},
		{
			name: "grant: scopes left out: none", typeName: GrantTypeName,
			config: grantConfig(""), answer: grantAnswer(`"scope":["read:x"]`),
			want: map[string]string{"scopes": "[]"}, sends: `{"scope":[]}`,
		},
		{
			name: "grant: scopes left out with allow_all_scopes: null", typeName: GrantTypeName,
			config: grantConfig(`,"allow_all_scopes":true`), answer: grantAnswer(`"scope":["read:x"]`),
			want: map[string]string{"scopes": "null", "allow_all_scopes": "true"}, sends: `{"allow_all_scopes":true}`,
		},
		{
			name: "grant: organization_usage removed returns to deny", typeName: GrantTypeName,
			config: grantConfig(`,"scopes":["read:x"]`), answer: grantAnswer(`"scope":["read:x"],"organization_usage":"allow"`),
			want: map[string]string{"organization_usage": `"deny"`}, sends: `{"organization_usage":"deny"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typeName := cmp.Or(tc.typeName, TypeName)
			r := rules(t, typeName)
			config := r.value(t, tc.config)
			prior := tftypes.NewValue(r.typ, nil)
			if tc.answer != "" {
				prior = r.state(t, tc.answer, tc.inState)
			}
			planned := r.plan(t, config, prior, []byte(tc.private))
			for _, d := range planrulestest.Differences(planned, prior, tc.want) {
				t.Error(d)
			}
			if tc.answer == "" {
				return
			}
			if sent := r.sends(t, planned, prior); sent != tc.sends {
				t.Errorf("sends %s\nwant  %s", sent, tc.sends)
			}
		})
	}
}

// transfer ends answered with a session_transfer the tenant filled, without
// delegation (the tenant answers it only when set).
const transfer = `,"session_transfer":{"can_create_session_transfer_token":true,"allowed_authentication_methods":["cookie"],
"enforce_device_binding":"ip","allow_refresh_token":false,"enforce_online_refresh_tokens":true,"enforce_cascade_revocation":true}}`

func withoutGrantTypes(answer string) string {
	return strings.Replace(answer, `"grant_types":["authorization_code","refresh_token"],`, "", 1)
}

func grantConfig(more string) string {
	return `{"client_id":"AbCdEfGhIjKlMnOpQrStUvWxYz012345","audience":"https://api.example.com"` + more + `}`
}

func grantAnswer(more string) string {
	return `{"id":"cgr_0123456789abcdef","client_id":"AbCdEfGhIjKlMnOpQrStUvWxYz012345","audience":"https://api.example.com",` + more + `}`
}

// ruleSet plans one resource type through the framework's protocol server.
type ruleSet struct {
	typeName string
	schema   schema.Schema
	typ      tftypes.Type
	srv      tfprotov6.ProviderServer
}

func rules(t *testing.T, typeName string) ruleSet {
	s := clientSchema()
	if typeName == GrantTypeName {
		s = grantSchema()
	}
	srv, err := planrulestest.Server(NewResource, NewGrantResource)
	if err != nil {
		t.Fatal(err)
	}
	return ruleSet{typeName: typeName, schema: s, typ: s.Type().TerraformType(context.Background()), srv: srv}
}

// value is the configuration of JSON, the attributes it leaves out null.
func (r ruleSet) value(t *testing.T, js string) tftypes.Value {
	v, err := tftypes.ValueFromJSONWithOpts([]byte(js), r.typ, tftypes.ValueFromJSONOpts{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// state is the state the resource writes after reading answer.
func (r ruleSet) state(t *testing.T, answer string, inState bool) tftypes.Value {
	ctx := context.Background()
	st := tfsdk.State{Schema: r.schema, Raw: tftypes.NewValue(r.typ, nil)}
	var diags diag.Diagnostics
	if r.typeName == GrantTypeName {
		var g mgmt.ClientGrant
		if err := json.Unmarshal([]byte(answer), &g); err != nil {
			t.Fatal(err)
		}
		var m grantModel
		m.fromAPI(&g)
		diags = st.Set(ctx, &m)
	} else {
		var c mgmt.AppClient
		if err := json.Unmarshal([]byte(answer), &c); err != nil {
			t.Fatal(err)
		}
		var m resourceModel
		m.ClientSecretInState = types.BoolValue(inState)
		diags = m.fromAPI(ctx, &c)
		diags.Append(st.Set(ctx, &m)...)
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
	return st.Raw
}

// plan is the framework's plan of config over prior, from the proposal
// Terraform makes.
func (r ruleSet) plan(t *testing.T, config, prior tftypes.Value, private []byte) tftypes.Value {
	planned, err := planrulestest.Plan(r.srv, r.typeName, r.schema, config, prior, private)
	if err != nil {
		t.Fatal(err)
	}
	return planned
}

// sends is the update's request body for planned over prior, as JSON.
func (r ruleSet) sends(t *testing.T, planned, prior tftypes.Value) string {
	ctx := context.Background()
	plan, state := tfsdk.Plan{Schema: r.schema, Raw: planned}, tfsdk.State{Schema: r.schema, Raw: prior}
	var body any
	if r.typeName == GrantTypeName {
		var p, s grantModel
		diags := plan.Get(ctx, &p)
		diags.Append(state.Get(ctx, &s)...)
		u, d := p.toUpdate(ctx, s)
		body, diags = u, append(diags, d...)
		if diags.HasError() {
			t.Fatal(diags)
		}
	} else {
		var p, s resourceModel
		diags := plan.Get(ctx, &p)
		diags.Append(state.Get(ctx, &s)...)
		u, d := p.toUpdate(ctx, s.clientModel)
		body, diags = u, append(diags, d...)
		if diags.HasError() {
			t.Fatal(diags)
		}
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
