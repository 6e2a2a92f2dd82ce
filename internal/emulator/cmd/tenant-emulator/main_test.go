package main

import (
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func TestParseFlags_failPackage(t *testing.T) {
	fs := flag.NewFlagSet("tenant-emulator", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o, err := parseFlags(fs, []string{"--fail-package", "auth0@2.42.0", "--fail-package=@acme/sdk", "--latency", "5ms"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"auth0@2.42.0", "@acme/sdk"}; !slices.Equal(o.Faults.FailingPackages, want) {
		t.Fatalf("FailingPackages %q, want %q", o.Faults.FailingPackages, want)
	}
	if o.Faults.LatencyMS != 5 {
		t.Fatalf("LatencyMS %d", o.Faults.LatencyMS)
	}
	o, err = parseFlags(flag.NewFlagSet("tenant-emulator", flag.ContinueOnError), nil)
	if err != nil || o.Faults.FailingPackages != nil {
		t.Fatalf("no flag: %q, %v", o.Faults.FailingPackages, err)
	}
}

func TestParseFlags_assume(t *testing.T) {
	fs := flag.NewFlagSet("tenant-emulator", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o, err := parseFlags(fs, []string{"--assume", "held_permission=conflict", "--assume=action_deploy=separate"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Assume.HeldPermission != "conflict" || o.Assume.ActionDeploy != "separate" || o.Assume.UndefinedScope != "" {
		t.Fatalf("Assume %+v", o.Assume)
	}
	for arg, want := range map[string]string{
		"held_permission":           "want name=value",
		"held_permission=sometimes": `"sometimes" is not one of accept, conflict`,
		"weather=fine":              `no assumption is named "weather"`,
	} {
		var out strings.Builder
		fs := flag.NewFlagSet("tenant-emulator", flag.ContinueOnError)
		fs.SetOutput(&out)
		if _, err := parseFlags(fs, []string{"--assume", arg}); err == nil || !strings.Contains(out.String(), want) {
			t.Errorf("--assume %s: %v, output %q, want %q", arg, err, out.String(), want)
		}
	}
}

// --exchange-rate-limit passes through to the option, which resolves it:
// unset, the default (10 a second); 0, no limit, as the guide says.
func TestParseFlags_exchangeRateLimit(t *testing.T) {
	for args, want := range map[string]emulator.ExchangeRate{
		"":                          0,
		"--exchange-rate-limit=0":   -1,
		"--exchange-rate-limit=2.5": 2.5,
	} {
		fs := flag.NewFlagSet("tenant-emulator", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o, err := parseFlags(fs, strings.Fields(args))
		if err != nil || o.ExchangeRateLimit != want {
			t.Errorf("%q: %v, %v, want %v", args, o.ExchangeRateLimit, err, want)
		}
		if f := fs.Lookup("exchange-rate-limit"); args == "" && f.Value.String() != "10" {
			t.Errorf("the flag's value by default: %s", f.Value)
		}
	}
	for _, v := range []string{"-1", "NaN"} {
		fs := flag.NewFlagSet("tenant-emulator", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if _, err := parseFlags(fs, []string{"--exchange-rate-limit=" + v}); err == nil || !strings.Contains(err.Error(), "give 0 (no limit) or more") {
			t.Errorf("--exchange-rate-limit=%s: %v, want it refused", v, err)
		}
	}
	var out strings.Builder
	fs := flag.NewFlagSet("tenant-emulator", flag.ContinueOnError)
	fs.SetOutput(&out)
	if _, err := parseFlags(fs, []string{"--exchange-rate-limit", "fast"}); err == nil || !strings.Contains(out.String(), `invalid value "fast" for flag -exchange-rate-limit: parse error`) {
		t.Errorf("a bad number: %v, output %q", err, out.String())
	}
	out.Reset()
	fs.Usage()
	if want := "-exchange-rate-limit requests\n    \tthe custom token exchange's own rate limit, requests a second for the tenant (default 10; 0: none)\n"; !strings.Contains(out.String(), want) {
		t.Errorf("help: %s", out.String())
	}
}

// TestAssumptions_documented: the emulator guide lists every assumption
// with its values, the default first.
func TestAssumptions_documented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "templates", "guides", "emulator.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range emulator.AllAssumptions {
		row := "| `" + a.Name + "` | `" + strings.Join(a.Values, "`, `") + "` |"
		if !strings.Contains(string(b), row) {
			t.Errorf("the emulator guide lacks the row %s", row)
		}
	}
}

func TestReadClients(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "clients.json")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cs, err := readClients(write(`[{"client_id": "r", "client_secret": "s", "scopes": ["read:roles"]}, {"client_id": "a", "client_secret": "s", "scopes": ["*"], "global": true}]`))
	if err != nil || len(cs) != 2 || !slices.Equal(cs[0].Scopes, []string{"read:roles"}) || cs[0].Global || !cs[1].Global || len(cs[1].Scopes) < 20 {
		t.Fatalf("%+v %v", cs, err)
	}
	for body, want := range map[string]string{
		`[{"client_id": "r", "client_secret": "s", "scopes": ["read:everything"]}]`:            `unknown scope "read:everything"`,
		`[{"client_id": "r", "scopes": []}]`:                                                   "needs client_id and client_secret",
		`[{"client_id": "r", "client_secret": "s", "scope": []}]`:                              "unknown field",
		`[{"client_id": "r", "client_secret": "s"}, {"client_id": "r", "client_secret": "t"}]`: `client_id "r" appears twice`,
	} {
		if _, err := readClients(write(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// TestBinary_clientsStateAndSignals runs the built emulator: a client of
// --clients gets only its scopes, SIGTERM stops it with exit code 0 after
// writing --state-file, and it comes back from that file with the same
// default credentials.
func TestBinary_clientsStateAndSignals(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "tenant-emulator")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	clients := filepath.Join(dir, "clients.json")
	if err := os.WriteFile(clients, []byte(`[{"client_id": "reader", "client_secret": "reader-secret", "scopes": ["read:roles"]}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "tenant.json")
	var stderr strings.Builder
	run := func() (*exec.Cmd, map[string]string) {
		cmd := exec.Command(bin, "--listen", "127.0.0.1:0", "--clients", clients, "--state-file", state)
		stderr.Reset()
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill() })
		var line map[string]string
		if err := json.NewDecoder(stdout).Decode(&line); err != nil {
			t.Fatal(err)
		}
		return cmd, line
	}
	cmd, line := run()
	if want := strings.Replace(line["domain"], "http://", "https://", 1) + "/api/v2/"; line["audience"] != want {
		t.Fatalf("the JSON line's audience is %q, want %q", line["audience"], want)
	}
	token := func(line map[string]string, id, secret string) string {
		domain := line["domain"]
		resp, err := http.PostForm(domain+"/oauth/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret},
			"audience": {line["audience"]}})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
			t.Fatalf("token for %s: %d %v", id, resp.StatusCode, err)
		}
		return tok.AccessToken
	}
	call := func(domain, tok, method, path, body string) int {
		req, _ := http.NewRequest(method, domain+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	reader := token(line, "reader", "reader-secret")
	if got := call(line["domain"], reader, "GET", "/api/v2/roles", ""); got != 200 {
		t.Fatalf("the reader's read: %d", got)
	}
	if got := call(line["domain"], reader, "POST", "/api/v2/roles", `{"name":"x"}`); got != 403 {
		t.Fatalf("the reader's write: %d, want 403", got)
	}
	admin := token(line, line["client_id"], line["client_secret"])
	if got := call(line["domain"], admin, "POST", "/api/v2/roles", `{"name":"kept"}`); got != 200 {
		t.Fatalf("create: %d", got)
	}
	if got := call(line["domain"], admin, "GET", "/api/v2/logs", ""); got != 404 {
		t.Fatalf("a route the emulator does not serve: %d, want 404", got)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("SIGTERM: %v, want exit code 0", err)
	}
	if !strings.Contains(stderr.String(), "not served: GET /api/v2/logs") {
		t.Fatalf("standard error %q does not name the route the emulator does not serve", stderr.String())
	}
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("no state file after SIGTERM: %v", err)
	}
	_, again := run()
	if again["client_id"] != line["client_id"] || again["client_secret"] != line["client_secret"] {
		t.Fatal("the default credentials changed across the restart")
	}
	admin = token(again, again["client_id"], again["client_secret"])
	req, _ := http.NewRequest("GET", again["domain"]+"/api/v2/roles?name_filter=kept", nil)
	req.Header.Set("Authorization", "Bearer "+admin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"kept"`) {
		t.Fatalf("the role did not come back: %s", body)
	}
}
