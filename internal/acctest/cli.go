package acctest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/go-version"
)

// CLIVersion is the version the locally built provider is installed as.
const CLIVersion = "0.1.0"

// mirror builds the provider binary once per test process into a filesystem
// mirror, so that `terraform init` installs it without registry access. A
// failed build is tried again by the next caller. Main removes the mirror
// when the package's tests end.
func mirror() (string, error) { return builtMirror() }

// mirrorMade is the mirror's folder once built (nil before).
var mirrorMade atomic.Pointer[string]

// Main runs a package's tests, then removes the provider mirror they built
// (tens of megabytes a test process): the package's TestMain is
// `os.Exit(acctest.Main(m))`.
func Main(m *testing.M) int {
	code := m.Run()
	if dir := mirrorMade.Load(); dir != nil {
		_ = os.RemoveAll(*dir)
	}
	return code
}

var builtMirror = onSuccess(func() (string, error) {
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	dir, err := os.MkdirTemp("", "tenant-mirror-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "terraform-provider-tenant")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(root)))
	if out, err := cmd.CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("building the provider: %v\n%s", err, out)
	}
	if err := mirrorProvider(dir, "tenant-iac/tenant", CLIVersion, bin); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	mirrorMade.Store(&dir)
	return dir, nil
})

// registryHosts are the hosts a source address without one means: to
// Terraform registry.terraform.io, to OpenTofu registry.opentofu.org.
var registryHosts = []string{"registry.terraform.io", "registry.opentofu.org"}

// mirrorProvider links bin into the filesystem mirror dir as version of the
// provider source ("namespace/type"), under every registry host, so that
// both Terraform and OpenTofu install it offline.
func mirrorProvider(dir, source, version, bin string) error {
	name := "terraform-provider-" + source[strings.LastIndex(source, "/")+1:] + "_v" + version
	for _, host := range registryHosts {
		plat := filepath.Join(dir, host, source, version, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(plat, 0o755); err != nil {
			return err
		}
		if err := os.Symlink(bin, filepath.Join(plat, name)); err != nil && !os.IsExist(err) {
			return err
		}
	}
	return nil
}

// CLI runs the real terraform binary on a working folder against the
// locally built provider, for tests that need whole processes: faults that
// span several applies, captured logs, benchmarks.
type CLI struct {
	Dir string
	Env []string
}

// NewCLI writes files into a new working folder and runs terraform init.
func NewCLI(t testing.TB, files map[string]string) *CLI {
	t.Helper()
	c, err := NewCLIIn(t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// NewCLIIn is NewCLI for programs: dir is the working folder.
func NewCLIIn(dir string, files map[string]string) (*CLI, error) {
	c, err := PrepareCLI(dir, files)
	if err != nil {
		return nil, err
	}
	if out, err := c.Run("init", "-input=false", "-no-color"); err != nil {
		return nil, fmt.Errorf("terraform init: %v\n%s", err, out)
	}
	return c, nil
}

// PrepareCLI writes files and the CLI configuration (the filesystem mirror)
// into dir, without running init: for scripts that run it themselves.
func PrepareCLI(dir string, files map[string]string) (*CLI, error) {
	m, err := mirror()
	if err != nil {
		return nil, err
	}
	rc := filepath.Join(dir, ".terraformrc")
	conf := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %[1]q\n    include = [%[2]s]\n  }\n  direct {\n    exclude = [%[2]s]\n  }\n}\n",
		m, `"tenant-iac/tenant", "auth0/auth0"`)
	if err := os.WriteFile(rc, []byte(conf), 0o600); err != nil {
		return nil, err
	}
	declared := false
	for _, body := range files {
		declared = declared || strings.Contains(body, "required_providers")
	}
	if !declared {
		files["versions.tf"] = fmt.Sprintf("terraform {\n  required_providers {\n    tenant = {\n      source  = \"tenant-iac/tenant\"\n      version = %q\n    }\n  }\n}\n", CLIVersion)
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			return nil, err
		}
	}
	return &CLI{Dir: dir, Env: []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}}, nil
}

// Run runs terraform with args and returns its combined output.
func (c *CLI) Run(args ...string) (string, error) {
	cmd := exec.Command(terraformPath(), args...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TerraformPath is the CLI the tests run: TF_ACC_TERRAFORM_PATH, else
// terraform from PATH.
func TerraformPath() string { return terraformPath() }

func terraformPath() string {
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	return "terraform"
}

// TerraformVersion is the version of the terraform binary the tests run,
// asked once per test process until it answers (each `terraform version`
// costs a CLI start).
func TerraformVersion() (*version.Version, error) { return cliVersion() }

var cliVersion = onSuccess(func() (*version.Version, error) {
	out, err := askCLI("version", "-json")
	if err != nil {
		return nil, err
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	return version.NewVersion(v.Version)
})

// RequireTerraform skips a whole-process test when the terraform binary is
// older than min (e.g. "1.14.0" for actions and terraform query), and on
// OpenTofu, which has not the feature.
func RequireTerraform(t testing.TB, min, why string) {
	t.Helper()
	RequireCLI(t, min, "", why)
}

// RequireCLI skips a whole-process test when the CLI is older than the
// version that has the feature: tf for Terraform, tofu for OpenTofu ("" when
// no OpenTofu version has it).
func RequireCLI(t testing.TB, tf, tofu, why string) {
	t.Helper()
	v, err := TerraformVersion()
	if err != nil {
		t.Fatal(err)
	}
	cli, min := "Terraform", tf
	if OpenTofu(t) {
		cli, min = "OpenTofu", tofu
	}
	if min == "" {
		t.Skipf("OpenTofu %s has no %s (Terraform %s or later has)", v, why, tf)
	}
	if v.LessThan(version.Must(version.NewVersion(min))) {
		t.Skipf("%s %s is below %s, which %s needs", cli, v, min, why)
	}
}

// OpenTofu reports whether the CLI the tests run is OpenTofu (asked once
// per test process until it answers); a CLI that cannot say fails the test.
func OpenTofu(t testing.TB) bool {
	t.Helper()
	tofu, err := isOpenTofu()
	if err != nil {
		t.Fatal(err)
	}
	return tofu
}

// isOpenTofu reads the plain `version`: OpenTofu's -json does not name it.
var isOpenTofu = onSuccess(func() (bool, error) {
	out, err := askCLI("version")
	return bytes.Contains(out, []byte("OpenTofu")), err
})

// askCLI runs the CLI the tests run with args; an error names the command
// and carries what the CLI wrote to stderr.
func askCLI(args ...string) ([]byte, error) {
	out, err := exec.Command(terraformPath(), args...).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && len(bytes.TrimSpace(exit.Stderr)) > 0 {
			err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(exit.Stderr))
		}
		return nil, fmt.Errorf("%s %s: %w", terraformPath(), strings.Join(args, " "), err)
	}
	return out, nil
}

// onSuccess caches f's first answer that is not an error. An error is
// returned as it is, and f is asked again the next time: one failed start
// of a process (the CLI, the provider's build) on a loaded machine does not
// decide every later call of the test process. Callers in parallel wait for
// the one f running.
func onSuccess[T any](f func() (T, error)) func() (T, error) {
	var (
		mu   sync.Mutex
		done bool
		v    T
	)
	return func() (T, error) {
		mu.Lock()
		defer mu.Unlock()
		if done {
			return v, nil
		}
		got, err := f()
		if err != nil {
			return got, err
		}
		v, done = got, true
		return v, nil
	}
}

// OnceAcrossCLIs marks a test whose outcome no CLI changes: a test of the
// provider's own decisions (bounds refused before any request, the
// tenant's refusals, errors and faults turned into diagnostics), or one
// that starts no Terraform in a package whose other tests do. make test
// runs it, with the newest Terraform and the race detector; the passes
// that run the suite again with other CLIs to test what a CLI decides
// (plan, apply, refresh, import, identity, moved, write-only and ephemeral
// values, the guides), make testacc and make testacc-opentofu, set
// TENANT_ACC_CLI_PASS and skip it, saying so.
func OnceAcrossCLIs(t testing.TB) {
	t.Helper()
	if CLIPass() {
		t.Skip("its outcome is the same under every CLI: make test runs it")
	}
}

// CLIWorkDoneBy marks a test whose CLI work (the same commands on the same
// shape of configuration) the tests named do with every CLI, so that what
// it adds is the provider's decisions: make test runs it, and the passes
// with other CLIs skip it, naming those tests. TestCLIWorkDoneBy checks
// that each named test exists, once, and is not itself marked to run once.
func CLIWorkDoneBy(t testing.TB, tests ...string) {
	t.Helper()
	if CLIPass() {
		t.Skipf("its CLI work is done with every CLI by %s: make test runs it", strings.Join(tests, ", "))
	}
}

// CLIPass reports whether this run is one of the passes with another CLI,
// which test what the CLI decides (TENANT_ACC_CLI_PASS set).
func CLIPass() bool { return os.Getenv("TENANT_ACC_CLI_PASS") != "" }

// Write replaces one file of the working folder.
func (c *CLI) Write(t testing.TB, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(c.Dir, name), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}
