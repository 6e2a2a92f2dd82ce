package mgmtapi_test

import (
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/mgmtapi"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// The routes run on a tenant alone, behind the bearer tokens they check:
// a token signed by the tenant's key for the Management API, of a client
// of the tenant, with the route's scope.
func TestRoutes_onATenantAlone(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	in := actionruntime.NewInstaller(actionruntime.InstallerOptions{Cache: t.TempDir(), Npm: filepath.Join(t.TempDir(), "no-npm")})
	defer in.Close()
	rt := actionruntime.New(actionruntime.Options{})
	defer rt.Close()
	tn := &tenant.Tenant{St: tenant.NewStore(), Host: "127.0.0.1:8787", Name: "alone", BuildDelay: time.Millisecond, Installer: in}
	tn.SeedSystem()
	tn.SeedClient(tenant.ClientSeed{ID: "reader", Secret: "s", Scopes: []string{"read:roles"}}, "Reader")
	tn.SeedClient(tenant.ClientSeed{ID: "writer", Secret: "s", Scopes: []string{"create:roles", "read:roles"}}, "Writer")
	api := mgmtapi.New(tn, rt, &key.PublicKey)
	mux := http.NewServeMux()
	api.Routes(mux)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, e := api.Authenticate(r)
		if e != nil {
			wire.WriteErr(w, e)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()
	token := func(client, scope string) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"iss": "https://" + tn.Host + "/", "aud": tn.Audience(),
			"azp": client, "scope": scope, "exp": time.Now().Add(time.Hour).Unix()}).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	call := func(tok, method, path, body string) int {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := call(token("writer", "create:roles"), "POST", "/api/v2/roles", `{"name":"readers"}`); got != 200 {
		t.Fatalf("create with create:roles: %d", got)
	}
	if got := call(token("reader", "read:roles"), "POST", "/api/v2/roles", `{"name":"others"}`); got != 403 {
		t.Fatalf("create with read:roles only: %d", got)
	}
	if got := call(token("nobody", "create:roles"), "GET", "/api/v2/roles", ""); got != 401 {
		t.Fatalf("a client the tenant does not hold: %d", got)
	}
	tn.Lock()
	n := len(tn.St.Roles)
	tn.Unlock()
	if n != 1 {
		t.Fatalf("%d roles, want the one created", n)
	}
}
