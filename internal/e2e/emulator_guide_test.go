package e2e_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// TestEmulatorGuide follows docs/guides/emulator.md from its text: the
// release archive, the emulator started as it says, its JSON line, a token
// and requests by hand, the log line of a route it does not serve, a
// clients file, HTTPS. Then it checks the page's lists against the
// emulator the guide started: every route "What it serves" lists is
// served, every route the emulator serves is listed there, and every
// route "What it does not serve" names is answered as not served, and
// logged.
func TestEmulatorGuide(t *testing.T) {
	// It starts no Terraform: the emulator and curl only.
	acctest.OnceAcrossCLIs(t)
	t.Parallel() // a folder, a home and an emulator of its own
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("the emulator guide calls the emulator with curl, which is not on PATH")
	}
	r := newReader(t)
	r.step("download the emulator's release archive", "[Dd]ownload `tenant-emulator_", (*reader).downloadEmulator)
	r.rewrite("127.0.0.1:8787", "127.0.0.1:"+freePort(t))
	r.rewrite("127.0.0.1:8788", "127.0.0.1:"+freePort(t))
	r.rewrite("linux_amd64", platform())

	// The first emulator the guide starts, which the lists are checked on.
	var line map[string]string
	var first *guideServer
	r.hooks = append(r.hooks, &hook{
		name: "the first start of the emulator",
		match: func(b *guideBlock) bool {
			return b.Role == roleRun && emulatorCommand.MatchString(strings.TrimSpace(b.Text)) && first == nil
		},
		after: func(r *reader, b *guideBlock) {
			first = r.servers[len(r.servers)-1]
			if err := json.Unmarshal([]byte(r.lastOut), &line); err != nil {
				t.Fatalf("%s: the emulator's first line is not JSON: %v\n%s", b, err, r.lastOut)
			}
		},
	})
	// The exports of the HTTPS section reach the emulator, over HTTPS, with
	// its certificate.
	r.hookOn("TENANT_CA_FILE", roleRun, hook{
		after: func(r *reader, b *guideBlock) {
			if out, err := r.runOnce(`case "$TENANT_DOMAIN" in https://*) ;; *) echo "TENANT_DOMAIN=$TENANT_DOMAIN" >&2; exit 1 ;; esac
curl -sf --cacert "$TENANT_CA_FILE" "$TENANT_DOMAIN/.well-known/jwks.json" >/dev/null`); err != nil {
				t.Fatalf("%s: TENANT_DOMAIN and TENANT_CA_FILE do not reach the emulator over HTTPS: %v\n%s", b, err, out)
			}
		},
	})
	r.walk(readGuide(t, "emulator"))

	page := readGuidePage(t, "emulator")
	token := managementToken(t, line)
	probe := func(method, path string) {
		t.Helper()
		var body *strings.Reader
		if method != "GET" && method != "DELETE" {
			body = strings.NewReader("{}")
		} else {
			body = strings.NewReader("")
		}
		req, err := http.NewRequest(method, line["base_url"]+path, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		if method != "GET" && method != "DELETE" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	served := servedRoutes(t, page)
	notServed := notServedRoutes(t, page)
	listed := map[string]bool{}
	for _, rt := range served {
		listed[routeKey(rt[0], rt[1])] = true
	}
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	for _, rt := range emu.APIRoutes() {
		method, path, _ := strings.Cut(rt, " ")
		if !listed[routeKey(method, strings.TrimPrefix(path, "/api/v2"))] {
			t.Errorf("What it serves does not list %s, which the emulator serves", rt)
		}
	}
	for _, rt := range append(append([][2]string{}, served...), notServed...) {
		probe(rt[0], concretePath(rt[1]))
	}
	log := r.serverLog(first)
	for _, rt := range served {
		if strings.Contains(log, "not served: "+rt[0]+" /api/v2"+concretePath(rt[1])+" ") {
			t.Errorf("What it serves lists %s %s, which the emulator does not serve", rt[0], rt[1])
		}
	}
	for _, rt := range notServed {
		if !strings.Contains(log, "not served: "+rt[0]+" /api/v2"+concretePath(rt[1])+" ") {
			t.Errorf("What it does not serve names %s %s, which the emulator serves", rt[0], rt[1])
		}
	}
}

// readGuidePage is docs/guides/<name>.md.
func readGuidePage(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "guides", name+".md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// managementToken is a token of the default client of the emulator whose
// JSON line is line, for its audience.
func managementToken(t *testing.T, line map[string]string) string {
	t.Helper()
	resp, err := http.PostForm(line["domain"]+"/oauth/token", map[string][]string{"grant_type": {"client_credentials"},
		"client_id": {line["client_id"]}, "client_secret": {line["client_secret"]}, "audience": {line["audience"]}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("no token for the JSON line's audience %q: %d %v", line["audience"], resp.StatusCode, err)
	}
	return tok.AccessToken
}

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	httpMethod = regexp.MustCompile(`^(GET|POST|PUT|PATCH|DELETE)$`)
	routeText  = regexp.MustCompile(`^(?:(GET|POST|PUT|PATCH|DELETE) )?(/\S+)$`)
)

// servedRoutes reads the table of "What it serves": in a row's cell,
// methods before a path are that path's ("`GET`, `POST /roles`"), and
// "..." is the row's first path.
func servedRoutes(t *testing.T, page string) [][2]string {
	t.Helper()
	var routes [][2]string
	for _, row := range strings.Split(between(t, page, "## What it serves\n", "\n## "), "\n") {
		cells := strings.Split(row, "|")
		if len(cells) != 4 || strings.HasPrefix(strings.TrimSpace(cells[2]), "---") || strings.TrimSpace(cells[2]) == "routes" {
			continue
		}
		base, methods := "", []string(nil)
		for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
			f := strings.Fields(m[1])
			switch {
			case len(f) == 1 && httpMethod.MatchString(f[0]):
				methods = append(methods, f[0])
			case len(f) == 2 && httpMethod.MatchString(f[0]) && strings.HasPrefix(f[1], "/"):
				if base == "" {
					base = f[1]
				}
				for _, method := range append(methods, f[0]) {
					routes = append(routes, [2]string{method, f[1]})
				}
				methods = nil
			case len(f) == 2 && httpMethod.MatchString(f[0]) && strings.HasPrefix(f[1], ".../") && base != "":
				routes = append(routes, [2]string{f[0], base + strings.TrimPrefix(f[1], "...")})
			default:
				t.Fatalf("What it serves: %q in the row %q is neither a method nor a method and a path", m[1], row)
			}
		}
		if len(methods) != 0 {
			t.Fatalf("What it serves: the row %q ends with methods and no path", row)
		}
	}
	if len(routes) == 0 {
		t.Fatal("What it serves lists no route")
	}
	return routes
}

// notServedRoutes reads the routes "What it does not serve" names among
// its examples ("Among them: ..."), GET where it names no method.
func notServedRoutes(t *testing.T, page string) [][2]string {
	t.Helper()
	var routes [][2]string
	among := between(t, between(t, page, "## What it does not serve\n", "\n## "), "Among them:", "\n\n")
	for _, m := range backticked.FindAllStringSubmatch(among, -1) {
		if r := routeText.FindStringSubmatch(m[1]); r != nil {
			method := r[1]
			if method == "" {
				method = "GET"
			}
			routes = append(routes, [2]string{method, r[2]})
		}
	}
	if len(routes) == 0 {
		t.Fatal("What it does not serve names no route")
	}
	return routes
}

var pathParam = regexp.MustCompile(`\{[A-Za-z]+\}`)

// routeKey is a route with its parameters unnamed, so that the page and
// the emulator may name them apart.
func routeKey(method, path string) string {
	return method + " " + pathParam.ReplaceAllLiteralString(path, "{}")
}

// concretePath fills a route's parameters: post-login for a trigger, an
// id no object has for the others.
func concretePath(route string) string {
	return pathParam.ReplaceAllStringFunc(route, func(p string) string {
		if p == "{trigger}" {
			return "post-login"
		}
		return "probe-0"
	})
}

// TestReadmeEmulatorBuild: the README's build of the emulator from source
// writes where git ignores it, so a clone stays clean.
func TestReadmeEmulatorBuild(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout: nothing to keep clean")
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	build := regexp.MustCompile(`go build -o (\S+) \./internal/emulator/cmd/tenant-emulator`).FindStringSubmatch(
		between(t, string(readme), "## The local emulator\n", "\n## "))
	if build == nil {
		t.Fatal("the README's local emulator section no longer builds the emulator with go build -o")
	}
	if err := exec.Command("git", "-C", root, "check-ignore", "-q", build[1]).Run(); err != nil {
		t.Fatalf("the README builds the emulator into %s, which git does not ignore: a clone is left with it untracked", build[1])
	}
}
