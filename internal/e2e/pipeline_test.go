package e2e_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// The CI guide's clients: what each may do.
var (
	ciReadScopes  = []string{"read:resource_servers", "read:roles", "read:actions", "read:token_exchange_profiles"}
	ciWriteScopes = []string{
		"read:resource_servers", "create:resource_servers", "update:resource_servers", "delete:resource_servers",
		"read:roles", "create:roles", "update:roles", "delete:roles",
		"read:actions", "create:actions", "update:actions", "delete:actions",
		"read:token_exchange_profiles",
	}
)

// TestCIPipeline runs the CI guide (docs/guides/ci.md) with examples/ci as
// it is, against the emulator and a locking state backend, each job in a
// fresh checkout that shares only the backend and the committed lock file:
//
//   - a pull request's plan, with the read-only client, read-only state
//     credentials and placeholder write-only inputs; the same client's
//     apply is refused by the tenant (403) and writes nothing;
//   - the push to main: its plan (read-only), then the apply of exactly that
//     saved plan in another checkout, with the write client, the state
//     credentials that write, and the real write-only secrets;
//   - the nightly drift check, passing, then failing with exit code 2 once
//     the tenant is changed outside Terraform, and passing after a repair;
//   - a second merge that changes the configuration, applied on the state
//     the first left (nothing "already exists").
//
// Neither a plan file nor the state holds a write-only secret.
func TestCIPipeline(t *testing.T) {
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	emu.AddClient(emulator.Client{ID: "ci-read", Secret: "ci-read-secret-0123", Scopes: ciReadScopes})
	emu.AddClient(emulator.Client{ID: "ci-write", Secret: "ci-write-secret-0123", Scopes: ciWriteScopes})
	backend := acctest.NewStateBackend(t)

	// The repository: the example's files and the lock file a developer
	// commits (terraform init -backend=false).
	repo := map[string]string{}
	for _, name := range []string{"main.tf", "pipeline.sh"} {
		b, err := os.ReadFile(filepath.Join("../../examples/ci", name))
		if err != nil {
			t.Fatal(err)
		}
		repo[name] = string(b)
	}
	dev, err := acctest.PrepareCLI(t.TempDir(), copyFiles(repo))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := dev.Run("init", "-backend=false", "-input=false", "-no-color"); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	lock, err := os.ReadFile(filepath.Join(dev.Dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	repo[".terraform.lock.hcl"] = string(lock)

	const signingSecret, webhookToken = "orders-signing-secret-0123456789", "audit-webhook-token-0123456789"
	readOnly := append([]string{"TENANT_DOMAIN=" + emu.Domain(), "TENANT_CLIENT_ID=ci-read", "TENANT_CLIENT_SECRET=ci-read-secret-0123",
		"TF_VAR_orders_signing_secret=plan-placeholder-not-a-secret", "TF_VAR_audit_webhook_token=plan-placeholder-not-a-secret"},
		backend.Env(acctest.BackendReader)...)
	write := append([]string{"TENANT_DOMAIN=" + emu.Domain(), "TENANT_CLIENT_ID=ci-write", "TENANT_CLIENT_SECRET=ci-write-secret-0123",
		"TF_VAR_orders_signing_secret=" + signingSecret, "TF_VAR_audit_webhook_token=" + webhookToken},
		backend.Env(acctest.BackendWriter)...)

	// pipeline.sh runs "terraform": the CLI under test, by that name.
	binDir := t.TempDir()
	if err := os.Symlink(terraformBinary(t), filepath.Join(binDir, "terraform")); err != nil {
		t.Fatal(err)
	}

	// job runs pipeline.sh step in a fresh checkout of the repository, with
	// the artifact files given, and returns its output, exit code and folder.
	job := func(step string, env []string, artifact map[string]string) (string, int, string) {
		t.Helper()
		files := copyFiles(repo)
		for name, body := range artifact {
			files[name] = body
		}
		cli, err := acctest.PrepareCLI(t.TempDir(), files)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "pipeline.sh", step)
		cmd.Dir = cli.Dir
		cmd.Env = append(append(append(os.Environ(), cli.Env...), env...), "PATH="+binDir+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		switch {
		case err == nil:
			return string(out), 0, cli.Dir
		case errors.As(err, &exit):
			return string(out), exit.ExitCode(), cli.Dir
		}
		t.Fatalf("pipeline.sh %s: %v", step, err)
		return "", 0, ""
	}
	mustJob := func(step string, env []string, artifact map[string]string, want int) (string, string) {
		t.Helper()
		out, code, dir := job(step, env, artifact)
		if code != want {
			t.Fatalf("pipeline.sh %s exited %d, want %d:\n%s", step, code, want, out)
		}
		return out, dir
	}
	planArtifact := func(dir string) map[string]string {
		t.Helper()
		a := map[string]string{}
		for _, name := range []string{"tfplan", "plan.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatalf("the plan job left no %s: %v", name, err)
			}
			a[name] = string(b)
		}
		return a
	}
	noSecrets := func(what, text string) {
		t.Helper()
		for name, secret := range map[string]string{"the signing secret": signingSecret, "the webhook token": webhookToken, "the write client's secret": "ci-write-secret-0123"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds %s", what, name)
			}
		}
	}

	// A pull request: plan with the read-only client.
	emu.ResetStats()
	out, prDir := mustJob("plan", readOnly, nil, 0)
	if !strings.Contains(out, "4 to add, 0 to change, 0 to destroy") {
		t.Fatalf("pull request plan:\n%s", out)
	}
	if n := acctest.Writes(emu.Stats().ByRoute); n != 0 || backend.Writes != 0 {
		t.Fatalf("the pull request's plan wrote %d requests to the tenant and %d states", n, backend.Writes)
	}
	// Its author cannot apply with what the job holds: the tenant refuses
	// every write (403), and nothing is created.
	emu.ResetStats()
	apply := exec.Command(terraformBinary(t), "apply", "-input=false", "-no-color", "-lock=false", "tfplan")
	apply.Dir = prDir
	apply.Env = append(append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(prDir, ".terraformrc")), readOnly...)
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
	_, planDir := mustJob("plan", readOnly, nil, 0)
	artifact := planArtifact(planDir)
	out, _ = mustJob("apply", write, artifact, 0)
	if !strings.Contains(out, "Apply complete! Resources: 4 added, 0 changed, 0 destroyed.") {
		t.Fatalf("apply:\n%s", out)
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
	noSecrets("the plan artifact", artifact["tfplan"]+artifact["plan.txt"]+unzip(t, artifact["tfplan"]))
	noSecrets("the state", backend.State())

	// Nightly: no drift; a change made by hand; the repair.
	mustJob("drift", readOnly, nil, 0)
	if _, err := c.UpdateResourceServer(ctx, "https://api.example.com/orders/", mgmt.ResourceServerUpdate{Name: mgmt.Set("Renamed by hand")}); err != nil {
		t.Fatal(err)
	}
	out, driftDir := mustJob("drift", readOnly, nil, 2)
	if b, _ := os.ReadFile(filepath.Join(driftDir, "drift.txt")); !strings.Contains(string(b), "Renamed by hand") {
		t.Fatalf("the drift report does not show the change:\n%s\n%s", out, b)
	}
	_, planDir = mustJob("plan", readOnly, nil, 0)
	mustJob("apply", write, planArtifact(planDir), 0)
	mustJob("drift", readOnly, nil, 0)

	// A second merge changes the configuration; the state of the first is
	// there, so the apply updates instead of creating again.
	repo["main.tf"] = strings.Replace(repo["main.tf"], `"create:orders" = "Place orders"`, `"create:orders" = "Place orders"
    "cancel:orders" = "Cancel orders"`, 1)
	out, planDir = mustJob("plan", readOnly, nil, 0)
	if !strings.Contains(out, "0 to add, 2 to change, 0 to destroy") {
		t.Fatalf("second merge plan:\n%s", out)
	}
	mustJob("apply", write, planArtifact(planDir), 0)
	mustJob("drift", readOnly, nil, 0)
	noSecrets("the state", backend.State())
}

func copyFiles(files map[string]string) map[string]string {
	out := make(map[string]string, len(files))
	for k, v := range files {
		out[k] = v
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
