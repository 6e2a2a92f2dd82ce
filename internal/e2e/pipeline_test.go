package e2e_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// The CI guide's clients: what each may do (its table "The two clients").
var (
	ciReadScopes  = []string{"read:resource_servers", "read:roles", "read:actions", "read:token_exchange_profiles"}
	ciWriteScopes = []string{
		"read:resource_servers", "create:resource_servers", "update:resource_servers", "delete:resource_servers",
		"read:roles", "create:roles", "update:roles", "delete:roles",
		"read:actions", "create:actions", "update:actions", "delete:actions",
		"read:token_exchange_profiles",
	}
)

// TestCIGuide follows docs/guides/ci.md from its text: the repository laid
// out as it says (the configuration and pipeline.sh in tenant/, the
// workflow in .github/workflows/), the provider installed on the runners
// as the README says, the lock file made as the guide says and committed;
// then the workflow's jobs, run as GitHub Actions runs them (its env,
// its environments' secrets and variables, its artifacts), each in a
// fresh checkout that shares only a locking state backend, against the
// emulator:
//
//   - a pull request's plan, with the read-only client, read-only state
//     credentials and placeholder write-only inputs; the same client's
//     apply is refused by the tenant (403) and writes nothing;
//   - the push to main: its plan (read-only), then the apply of exactly that
//     saved plan, with the write client, the state credentials that write,
//     and the real write-only secrets;
//   - the nightly drift check, passing, then failing with exit code 2 once
//     the tenant is changed outside Terraform, and passing after a repair;
//   - a second merge that changes the configuration, applied on the state
//     the first left (nothing "already exists").
//
// Neither a plan file nor the state holds a write-only secret.
func TestCIGuide(t *testing.T) {
	t.Parallel() // a folder, a home and an emulator of its own
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	emu.AddClient(emulator.Client{ID: "ci-read", Secret: "ci-read-secret-0123", Scopes: ciReadScopes})
	emu.AddClient(emulator.Client{ID: "ci-write", Secret: "ci-write-secret-0123", Scopes: ciWriteScopes})
	backend := acctest.NewStateBackend(t)

	r := newReader(t)
	r.step("install the provider as the README's Install section says", `terraform-provider-tenant#install`, (*reader).installAsReadme)
	r.rewrite("/opt/terraform-mirror", r.mirror())
	r.rewrite("linux_amd64", platform())
	var wf *workflow
	r.hookOn("jobs:", roleFile, hook{
		name: "the workflow",
		after: func(r *reader, b *guideBlock) {
			wf = readWorkflow(t, b.Path, r.read(b.Path))
		},
	})
	blocks := readGuide(t, "ci")
	r.walk(blocks)
	if wf == nil {
		t.Fatal("the guide has no workflow")
	}

	// The repository: what the guide had the reader write, and the lock
	// file its command made.
	repo := map[string]string{}
	for _, b := range blocks {
		if b.Role == roleFile {
			repo[b.Path] = r.read(b.Path)
		}
	}
	lockFile := filepath.Join(wf.dir, ".terraform.lock.hcl")
	repo[lockFile] = r.read(lockFile)
	if !strings.Contains(repo[lockFile], `provider "registry.`) {
		t.Fatalf("the lock file holds no provider:\n%s", repo[lockFile])
	}

	const signingSecret, webhookToken = "orders-signing-secret-0123456789", "audit-webhook-token-0123456789"
	readState, writeState := envMap(backend.Env(acctest.BackendReader)), envMap(backend.Env(acctest.BackendWriter))
	gh := &actions{
		t: t, r: r, wf: wf, repo: repo, artifacts: map[string]map[string]string{},
		vars: map[string]string{"TENANT_DOMAIN": emu.Domain(), "TF_HTTP_ADDRESS": backend.URL},
		environments: map[string]map[string]string{
			"tenant-read": {
				"TENANT_READ_CLIENT_ID": "ci-read", "TENANT_READ_CLIENT_SECRET": "ci-read-secret-0123",
				"TF_HTTP_READ_USERNAME": readState["TF_HTTP_USERNAME"], "TF_HTTP_READ_PASSWORD": readState["TF_HTTP_PASSWORD"],
			},
			"production": {
				"TENANT_CLIENT_ID": "ci-write", "TENANT_CLIENT_SECRET": "ci-write-secret-0123",
				"TF_HTTP_USERNAME": writeState["TF_HTTP_USERNAME"], "TF_HTTP_PASSWORD": writeState["TF_HTTP_PASSWORD"],
				"ORDERS_SIGNING_SECRET": signingSecret, "AUDIT_WEBHOOK_TOKEN": webhookToken,
			},
		},
	}
	noSecrets := func(what, text string) {
		t.Helper()
		for name, secret := range map[string]string{"the signing secret": signingSecret, "the webhook token": webhookToken, "the write client's secret": "ci-write-secret-0123"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds %s", what, name)
			}
		}
	}

	// A pull request: its jobs plan with the read-only client.
	emu.ResetStats()
	run := gh.event("pull_request", 101)
	if len(run.jobs) != 1 || !strings.Contains(run.jobs["plan"].out, "4 to add, 0 to change, 0 to destroy") {
		t.Fatalf("pull request: %v", run)
	}
	if n := acctest.Writes(emu.Stats().ByRoute); n != 0 || backend.Writes != 0 {
		t.Fatalf("the pull request's plan wrote %d requests to the tenant and %d states", n, backend.Writes)
	}
	// Its author cannot apply with what the job holds: the tenant refuses
	// every write (403), and nothing is created.
	emu.ResetStats()
	pr := run.jobs["plan"]
	apply := exec.Command(terraformBinary(t), "apply", "-input=false", "-no-color", "-lock=false", "tfplan")
	apply.Dir, apply.Env = filepath.Join(pr.workspace, wf.dir), append(append([]string{}, r.env...), pr.env...)
	if b, err := apply.CombinedOutput(); err == nil || !strings.Contains(string(b), "403") {
		t.Fatalf("the read-only client's apply was not refused with 403: %v\n%s", err, b)
	}
	st := emu.Stats()
	if w := acctest.Writes(st.ByRoute); w == 0 || st.ByStatus["403"] < w {
		t.Fatalf("the read-only client's apply: %d writes, %d refused: %v %v", w, st.ByStatus["403"], st.ByRoute, st.ByStatus)
	}
	if state := emu.State(); len(state.Roles) != 0 || len(state.Actions) != 0 {
		t.Fatalf("the refused apply left objects: %d roles, %d actions", len(state.Roles), len(state.Actions))
	}

	// The push to main: plan (read-only), then apply exactly that plan.
	run = gh.event("push", 102)
	if len(run.jobs) != 2 || !strings.Contains(run.jobs["apply"].out, "Apply complete! Resources: 4 added, 0 changed, 0 destroyed.") {
		t.Fatalf("push: %v", run)
	}
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rs, err := c.GetResourceServer(ctx, "https://api.example.com/orders/")
	if err != nil || rs.SigningSecret == nil || *rs.SigningSecret != signingSecret {
		t.Fatalf("the tenant's signing secret is not the apply job's: %v", err)
	}
	artifact := gh.artifacts["tfplan-102"]
	noSecrets("the plan artifact", strings.Join(mapValues(artifact), "")+unzip(t, artifact["tfplan"]))
	noSecrets("the state", backend.State())

	// Nightly: no drift; a change made by hand; the repair.
	gh.event("schedule", 103)
	if _, err := c.UpdateResourceServer(ctx, "https://api.example.com/orders/", mgmt.ResourceServerUpdate{Name: mgmt.Set("Renamed by hand")}); err != nil {
		t.Fatal(err)
	}
	run = gh.eventFails("schedule", 104, "drift", 2)
	if b, _ := os.ReadFile(filepath.Join(run.jobs["drift"].workspace, wf.dir, "drift.txt")); !strings.Contains(string(b), "Renamed by hand") {
		t.Fatalf("the drift report does not show the change:\n%s\n%s", run.jobs["drift"].out, b)
	}
	gh.event("push", 105)
	gh.event("schedule", 106)

	// A second merge changes the configuration; the state of the first is
	// there, so the apply updates instead of creating again.
	main := filepath.Join(wf.dir, "main.tf")
	gh.repo[main] = strings.Replace(gh.repo[main], `"create:orders" = "Place orders"`, `"create:orders" = "Place orders"
    "cancel:orders" = "Cancel orders"`, 1)
	run = gh.event("push", 107)
	if !strings.Contains(run.jobs["plan"].out, "0 to add, 2 to change, 0 to destroy") {
		t.Fatalf("second merge plan:\n%s", run.jobs["plan"].out)
	}
	gh.event("schedule", 108)
	noSecrets("the state", backend.State())
}

// workflow is the part of a GitHub Actions workflow the CI guide's uses.
type workflow struct {
	dir      string // the jobs' working-directory
	Defaults struct {
		Run struct {
			WorkingDirectory string `yaml:"working-directory"`
		}
	}
	Jobs map[string]*workflowJob
}

type workflowJob struct {
	If          string
	Needs       string
	Environment string
	Env         map[string]string
	Steps       []struct {
		Uses string
		With map[string]string
		Run  string
	}
}

func readWorkflow(t *testing.T, path, text string) *workflow {
	t.Helper()
	var wf workflow
	if err := yaml.Unmarshal([]byte(text), &wf); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	wf.dir = wf.Defaults.Run.WorkingDirectory
	if wf.dir == "" {
		wf.dir = "."
	}
	return &wf
}

// actions runs a workflow's jobs as GitHub Actions does, on this machine.
type actions struct {
	t            *testing.T
	r            *reader
	wf           *workflow
	repo         map[string]string // the repository's files
	vars         map[string]string
	environments map[string]map[string]string // each environment's secrets
	artifacts    map[string]map[string]string
}

type workflowRun struct {
	jobs map[string]*jobRun
}

type jobRun struct {
	workspace string
	env       []string
	out       string
	code      int
}

func (w *workflowRun) String() string {
	var b strings.Builder
	for name, j := range w.jobs {
		fmt.Fprintf(&b, "\njob %s (exit %d):\n%s", name, j.code, j.out)
	}
	return b.String()
}

// event runs the jobs an event starts, in order of their needs; each must
// succeed.
func (a *actions) event(name string, runID int) *workflowRun {
	a.t.Helper()
	run := a.start(name, runID)
	for job, j := range run.jobs {
		if j.code != 0 {
			a.t.Fatalf("%s (run %d): job %s failed: %s", name, runID, job, run)
		}
	}
	return run
}

// eventFails runs an event whose job must end with the exit code want.
func (a *actions) eventFails(name string, runID int, job string, want int) *workflowRun {
	a.t.Helper()
	run := a.start(name, runID)
	if j := run.jobs[job]; j == nil || j.code != want {
		a.t.Fatalf("%s (run %d): job %s did not exit %d: %s", name, runID, job, want, run)
	}
	return run
}

var eventCondition = regexp.MustCompile(`^github\.event_name == '([a-z_]+)'$`)

func (a *actions) start(event string, runID int) *workflowRun {
	t := a.t
	t.Helper()
	run := &workflowRun{jobs: map[string]*jobRun{}}
	for len(run.jobs) < len(a.wf.Jobs) {
		progress := false
		for name, job := range a.wf.Jobs {
			if _, done := run.jobs[name]; done {
				continue
			}
			if job.Needs != "" {
				need, ok := run.jobs[job.Needs]
				if !ok {
					continue
				}
				if need == nil || need.code != 0 {
					run.jobs[name] = nil // skipped
					progress = true
					continue
				}
			}
			progress = true
			if !a.runs(job.If, event) {
				run.jobs[name] = nil
				continue
			}
			run.jobs[name] = a.job(job, event, runID)
			t.Logf("%s (run %d): job %s exited %d", event, runID, name, run.jobs[name].code)
		}
		if !progress {
			t.Fatalf("the workflow's needs form a loop or name no job")
		}
	}
	for name, j := range run.jobs {
		if j == nil {
			delete(run.jobs, name)
		}
	}
	return run
}

// runs evaluates a job's if: one event name, or several joined by ||.
func (a *actions) runs(cond, event string) bool {
	if cond == "" {
		return true
	}
	for _, c := range strings.Split(cond, "||") {
		m := eventCondition.FindStringSubmatch(strings.TrimSpace(c))
		if m == nil {
			a.t.Fatalf("the workflow's condition %q is more than the test reads (github.event_name == '...' joined by ||)", cond)
		}
		if m[1] == event {
			return true
		}
	}
	return false
}

var expression = regexp.MustCompile(`\$\{\{\s*([a-z_]+)\.([A-Za-z0-9_]+)\s*\}\}`)

// job runs one job in a fresh workspace: its steps in order, each run:
// with bash as GitHub Actions runs it, until one fails.
func (a *actions) job(job *workflowJob, event string, runID int) *jobRun {
	t := a.t
	t.Helper()
	secrets, ok := a.environments[job.Environment]
	if !ok {
		t.Fatalf("the workflow's job uses the environment %q, which the guide does not describe", job.Environment)
	}
	expand := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(e string) string {
			m := expression.FindStringSubmatch(e)
			switch m[1] {
			case "secrets":
				return secrets[m[2]] // "" for a secret the job's environment does not hold, as GitHub gives it
			case "vars":
				v, ok := a.vars[m[2]]
				if !ok {
					t.Fatalf("the workflow reads the variable %s, which the test does not set", m[2])
				}
				return v
			case "github":
				if m[2] == "run_id" {
					return fmt.Sprint(runID)
				}
			}
			t.Fatalf("the workflow's expression %s is more than the test reads", e)
			return ""
		})
	}
	ws := t.TempDir()
	summary := filepath.Join(t.TempDir(), "summary")
	j := &jobRun{workspace: ws, env: []string{"CI=true", "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=" + event,
		fmt.Sprintf("GITHUB_RUN_ID=%d", runID), "GITHUB_WORKSPACE=" + ws, "GITHUB_STEP_SUMMARY=" + summary}}
	for k, v := range job.Env {
		j.env = append(j.env, k+"="+expand(v))
	}
	var out strings.Builder
	for _, step := range job.Steps {
		with := map[string]string{}
		for k, v := range step.With {
			with[k] = expand(v)
		}
		switch name, _, _ := strings.Cut(step.Uses, "@"); name {
		case "":
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step.Run)
			cmd.Dir, cmd.Env = filepath.Join(ws, a.wf.dir), append(append([]string{}, a.r.env...), j.env...)
			b, err := cmd.CombinedOutput()
			out.Write(b)
			if err != nil {
				j.out, j.code = out.String(), exitCode(err)
				return j
			}
		case "actions/checkout":
			for path, body := range a.repo {
				write(t, filepath.Join(ws, path), body)
			}
		case "hashicorp/setup-terraform":
			// The terraform under test is on the runner's PATH.
		case "actions/upload-artifact":
			files := map[string]string{}
			paths := strings.Fields(with["path"])
			root := commonDir(paths)
			for _, p := range paths {
				b, err := os.ReadFile(filepath.Join(ws, p))
				if err != nil {
					t.Fatalf("upload-artifact: %v", err)
				}
				files[strings.TrimPrefix(p, root+"/")] = string(b)
			}
			a.artifacts[with["name"]] = files
		case "actions/download-artifact":
			files, ok := a.artifacts[with["name"]]
			if !ok {
				t.Fatalf("download-artifact: no artifact %q", with["name"])
			}
			for name, body := range files {
				write(t, filepath.Join(ws, with["path"], name), body)
			}
		default:
			t.Fatalf("the workflow uses %s, which the test does not run", step.Uses)
		}
	}
	j.out = out.String()
	return j
}

// commonDir is the folder every path is in, as upload-artifact roots an
// artifact of several paths.
func commonDir(paths []string) string {
	dir := filepath.Dir(paths[0])
	for _, p := range paths[1:] {
		for !strings.HasPrefix(p, dir+"/") && dir != "." {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// unzip is the text of every file of a saved plan (a zip archive).
func unzip(t *testing.T, data string) string {
	t.Helper()
	r, err := zip.NewReader(bytes.NewReader([]byte(data)), int64(len(data)))
	if err != nil {
		t.Fatalf("the saved plan is not a zip archive: %v", err)
	}
	var b strings.Builder
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		b.Write(body)
	}
	return b.String()
}

func terraformBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
