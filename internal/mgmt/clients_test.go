package mgmt_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// recordedClient is a create answer of the recordings (TestClient_Create),
// with the token exchange of TestClient_CreateWithTokenExchange.
const recordedClient = `{"name":"Test Client","description":"This is just a test client.","client_id":"yCaTa3Jtg6Rni9tHKgSWQPGM2Fdhmo6W",` +
	`"client_secret":"s3cr3t","is_first_party":true,"is_token_endpoint_ip_header_trusted":false,"oidc_conformant":true,` +
	`"jwt_configuration":{"secret_encoded":false,"lifetime_in_seconds":36000},"signing_keys":[{"cert":"[REDACTED]"}],"sso_disabled":false,` +
	`"cross_origin_authentication":false,"grant_types":["authorization_code","implicit","refresh_token","client_credentials"],` +
	`"custom_login_page_on":true,"refresh_token":{"rotation_type":"non-rotating","expiration_type":"non-expiring","leeway":0,` +
	`"token_lifetime":2592000,"infinite_token_lifetime":true,"infinite_idle_token_lifetime":true,"idle_token_lifetime":1296000},` +
	`"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]},"addons":{"samlp":{}},` +
	`"client_authentication_methods":{"private_key_jwt":{"credentials":[{"id":"cred_1"}]}}}`

func TestClients_requests(t *testing.T) {
	var mu sync.Mutex
	var got []string
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, fmt.Sprintf("%s %s %s", r.Method, r.URL.RequestURI(), b))
		mu.Unlock()
		switch {
		case r.Method == http.MethodDelete:
			jsonReply(w, 404, `{"statusCode":404,"error":"Not Found","message":"The client does not exist","errorCode":"inexistent_client"}`)
		case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v2/clients/"):
			jsonReply(w, 200, recordedClient)
		case r.Method == http.MethodGet:
			jsonReply(w, 200, `{"total":1,"start":0,"limit":100,"clients":[`+recordedClient+`]}`)
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/clients"):
			jsonReply(w, 201, recordedClient)
		default:
			jsonReply(w, 200, recordedClient)
		}
	})
	c := f.client(t)
	ctx := context.Background()
	name, yes := "Test Client", true
	created, err := c.CreateClient(ctx, mgmt.AppClient{
		ClientID: "ignored", ClientSecret: "ignored", Name: &name, OIDCConformant: &yes,
		TokenExchange:               &mgmt.TokenExchange{AllowAnyProfileOfType: []string{"custom_authentication"}},
		ClientAuthenticationMethods: &mgmt.ClientAuthenticationMethods{},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The answer is read whole: the secret, the token exchange, the ids of
	// the credentials; fields without a Go field (addons) are dropped.
	if created.ClientID != "yCaTa3Jtg6Rni9tHKgSWQPGM2Fdhmo6W" || created.ClientSecret != "s3cr3t" || created.TokenExchange == nil ||
		created.TokenExchange.AllowAnyProfileOfType[0] != "custom_authentication" || *created.RefreshToken.IdleTokenLifetime != 1296000 ||
		created.ClientAuthenticationMethods.PrivateKeyJWT.Credentials[0].ID != "cred_1" {
		t.Fatalf("created %+v", created)
	}
	if _, err := c.GetClient(ctx, "a/b"); err != nil {
		t.Fatal(err)
	}
	metadata := map[string]*string{"gone": nil, "kept": &name}
	if _, err := c.UpdateClient(ctx, "cid", mgmt.AppClientUpdate{
		Description:      mgmt.Null[string](),
		Callbacks:        mgmt.Set([]string{}),
		ClientMetadata:   mgmt.Set(metadata),
		TokenExchange:    mgmt.Null[mgmt.TokenExchange](),
		JWTConfiguration: mgmt.Set(mgmt.JWTConfiguration{Alg: mgmt.Ptr("RS256"), Scopes: &map[string]string{}}),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateClientSecret(ctx, "cid"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteClient(ctx, "cid"); err != nil {
		t.Fatalf("a 404 on delete is success: %v", err)
	}
	found, err := c.FindClientsByName(ctx, "Test Client")
	if err != nil || len(found) != 1 {
		t.Fatalf("found %v %v", found, err)
	}
	want := []string{
		`POST /api/v2/clients {"name":"Test Client","oidc_conformant":true,"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`,
		`GET /api/v2/clients/a%2Fb `,
		`PATCH /api/v2/clients/cid {"description":null,"callbacks":[],"jwt_configuration":{"alg":"RS256","scopes":{}},"client_metadata":{"gone":null,"kept":"Test Client"},"token_exchange":null}`,
		`POST /api/v2/clients/cid/rotate-secret `,
		`DELETE /api/v2/clients/cid `,
		`GET /api/v2/clients?fields=client_id%2Cname&include_fields=true&include_totals=true&page=0&per_page=100 `,
		`GET /api/v2/clients/yCaTa3Jtg6Rni9tHKgSWQPGM2Fdhmo6W `,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestClientGrants_requests(t *testing.T) {
	var got []string
	grant := `{"id":"cgr_1","client_id":"c1","audience":"https://api::x","scope":["read:x"],"subject_type":"client"}`
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, fmt.Sprintf("%s %s %s", r.Method, r.URL.RequestURI(), b))
		switch {
		case r.Method == http.MethodDelete:
			w.WriteHeader(204)
		case r.Method == http.MethodGet && r.URL.Query().Get("client_id") == "c1":
			// A tenant that ignores the audience filter answers other grants too.
			jsonReply(w, 200, `{"total":2,"start":0,"limit":100,"client_grants":[`+grant+
				`,{"id":"cgr_2","client_id":"c1","audience":"https://other","scope":[],"subject_type":"client"}]}`)
		case r.Method == http.MethodGet && r.URL.Query().Has("client_id"):
			jsonReply(w, 200, `{"total":0,"start":0,"limit":100,"client_grants":[]}`)
		case r.Method == http.MethodPost:
			jsonReply(w, 201, grant)
		default:
			jsonReply(w, 200, grant)
		}
	})
	c := f.client(t)
	ctx := context.Background()
	sub := "client"
	if _, err := c.CreateClientGrant(ctx, mgmt.ClientGrant{ID: "x", ClientID: "c1", Audience: "https://api::x", Scope: &[]string{"read:x"}, SubjectType: &sub}); err != nil {
		t.Fatal(err)
	}
	g, err := c.FindClientGrant(ctx, "c1", "https://api::x")
	if err != nil || g == nil || g.ID != "cgr_1" || g.Key() != "c1::https://api::x" {
		t.Fatalf("found %+v %v", g, err)
	}
	if g, err := c.FindClientGrantByKey(ctx, "c2::https://api::x"); err != nil || g != nil {
		t.Fatalf("no grant: %+v %v", g, err)
	}
	if _, err := c.UpdateClientGrant(ctx, "cgr_1", mgmt.ClientGrantUpdate{Scope: mgmt.Set([]string{}), OrganizationUsage: mgmt.Set("deny")}); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteClientGrant(ctx, "cgr_1"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`POST /api/v2/client-grants {"client_id":"c1","audience":"https://api::x","scope":["read:x"],"subject_type":"client"}`,
		`GET /api/v2/client-grants?audience=https%3A%2F%2Fapi%3A%3Ax&client_id=c1&include_totals=true&page=0&per_page=100 `,
		`GET /api/v2/client-grants?audience=https%3A%2F%2Fapi%3A%3Ax&client_id=c2&include_totals=true&page=0&per_page=100 `,
		`PATCH /api/v2/client-grants/cgr_1 {"scope":[],"organization_usage":"deny"}`,
		`DELETE /api/v2/client-grants/cgr_1 `,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
