package emulator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// TestStateFile_survivesARestart: an emulator stopped with a state file
// comes back, on another port, with the same objects and the same default
// credentials; the system API is the new address's.
func TestStateFile_survivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tenant.json")
	h := start(t, Options{StateFile: path, BuildDelay: 1})
	tok := h.admin()
	var rs, role map[string]any
	r := h.call(tok, "POST", "/api/v2/resource-servers", map[string]any{"identifier": "https://kept", "scopes": []any{map[string]any{"value": "read:k"}}})
	h.expect(r, 201)
	_ = json.Unmarshal([]byte(r.body), &rs)
	r = h.call(tok, "POST", "/api/v2/roles", map[string]any{"name": "kept-role"})
	h.expect(r, 200)
	_ = json.Unmarshal([]byte(r.body), &role)
	h.expect(h.call(tok, "POST", "/api/v2/roles/"+role["id"].(string)+"/permissions",
		map[string]any{"permissions": []any{map[string]any{"resource_server_identifier": "https://kept", "permission_name": "read:k"}}}), 201)
	id, secret, oldAudience := h.s.ClientID(), h.s.ClientSecret(), h.s.Audience()
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", info, err)
	}

	h2 := start(t, Options{StateFile: path})
	if h2.s.ClientID() != id || h2.s.ClientSecret() != secret {
		t.Fatal("the default credentials changed across the restart")
	}
	tok = h2.tokenFor(id, secret)
	h2.expect(h2.call(tok, "GET", "/api/v2/resource-servers/"+rs["id"].(string), nil), 200, "https://kept")
	h2.expect(h2.call(tok, "GET", "/api/v2/roles/"+role["id"].(string)+"/permissions", nil), 200, "read:k")
	var list struct {
		ResourceServers []struct {
			Identifier string `json:"identifier"`
			IsSystem   bool   `json:"is_system"`
		} `json:"resource_servers"`
	}
	r = h2.call(tok, "GET", "/api/v2/resource-servers?include_totals=true", nil)
	h2.expect(r, 200)
	_ = json.Unmarshal([]byte(r.body), &list)
	systems := 0
	for _, s := range list.ResourceServers {
		if s.IsSystem {
			systems++
			if s.Identifier != h2.s.Audience() {
				t.Errorf("system API %q, want the new address's %q", s.Identifier, h2.s.Audience())
			}
		}
		if s.Identifier == oldAudience && oldAudience != h2.s.Audience() {
			t.Errorf("the old address's system API came back")
		}
	}
	if systems != 1 {
		t.Fatalf("%d system APIs after the restart", systems)
	}
}

func TestStateFile_refusesAnotherFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.json")
	if err := os.WriteFile(path, []byte(`{"version": 99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Start(Options{StateFile: path}); err == nil {
		t.Fatal("a file of another version was taken for a state")
	}
}

// TestStateFile_keepsTheDemoObjects: --demo with a state file seeds its
// objects once; a restart names the same ones instead of none.
func TestStateFile_keepsTheDemoObjects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tenant.json")
	h := start(t, Options{StateFile: path, Demo: true, BuildDelay: 1})
	demo := h.s.Demo()
	if demo.ActionID == "" || demo.RoleID == "" || demo.PhoneProviderID == "" {
		t.Fatalf("demo ids %+v", demo)
	}
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}
	h2 := start(t, Options{StateFile: path, Demo: true})
	if h2.s.Demo() != demo {
		t.Fatalf("demo ids after the restart %+v, want %+v", h2.s.Demo(), demo)
	}
	tok := h2.tokenFor(h2.s.ClientID(), h2.s.ClientSecret())
	h2.expect(h2.call(tok, "GET", "/api/v2/roles/"+demo.RoleID, nil), 200)
	r := h2.call(tok, "GET", "/api/v2/roles?include_totals=true", nil)
	h2.expect(r, 200)
	if n := strings.Count(r.body, `"id":"rol_`); n != 1 {
		t.Fatalf("%d roles after the restart, want the one demo role: %s", n, r.body)
	}
	if err := h2.s.Close(); err != nil {
		t.Fatal(err)
	}

	// A tenant saved without --demo stays as it is when restarted with it.
	plain := filepath.Join(t.TempDir(), "plain.json")
	h3 := start(t, Options{StateFile: plain})
	if err := h3.s.Close(); err != nil {
		t.Fatal(err)
	}
	h4 := start(t, Options{StateFile: plain, Demo: true})
	if h4.s.Demo() != (tenant.DemoIDs{}) {
		t.Fatalf("demo objects seeded into a saved tenant: %+v", h4.s.Demo())
	}
}

// TestStart_refusesAClientIDTwice: a client of Options.Clients with the
// default client's id, or another's, would replace it silently.
func TestStart_refusesAClientIDTwice(t *testing.T) {
	for _, clients := range [][]Client{
		{{ID: "fixed", Secret: "s"}},
		{{ID: "a", Secret: "s"}, {ID: "a", Secret: "t"}},
	} {
		s, err := Start(Options{ClientID: "fixed", ClientSecret: "x", Clients: clients})
		if err == nil {
			_ = s.Close()
			t.Fatalf("%+v: started", clients)
		}
		if !strings.Contains(err.Error(), "given twice") {
			t.Fatalf("%+v: %v", clients, err)
		}
	}
}

// TestStateFile_beforeUsers: a state written before users existed comes
// back with none, and users can be created.
func TestStateFile_beforeUsers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.json")
	old := `{"version":1,"client_id":"old-id","client_secret":"old-secret","store":{"profiles":{},"actions":{},"roles":{},"role_perms":{},` +
		`"resource_servers":{},"phone_providers":{},"outbox":[],"seq":3},"seqs":{},"demo":{}}`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	h := start(t, Options{StateFile: path})
	tok := h.tokenFor("old-id", "old-secret")
	h.expect(h.call(tok, "GET", "/api/v2/users", nil), 200, "[]")
	h.expect(h.call(tok, "POST", "/api/v2/users", `{"connection":"Username-Password-Authentication","email":"a@example.com","password":"p4ssw0rd!"}`), 201)
}
