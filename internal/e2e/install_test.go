package e2e_test

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// releaseVersion is the version the Install section's commands name.
const releaseVersion = "0.1.0"

// TestInstallFromReleaseArchive follows the README's Install section with
// an archive built as the release builds it (.goreleaser.yml's names): the
// commands that check it and put it in a filesystem mirror, the CLI
// configuration, and the required_providers block; then init installs the
// provider from the mirror, writes the lock file to commit, and a
// configuration applies against the emulator.
func TestInstallFromReleaseArchive(t *testing.T) {
	requireAcc(t)
	root := repoRoot(t)
	release, err := os.ReadFile(filepath.Join(root, ".goreleaser.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`binary: "{{ .ProjectName }}_v{{ .Version }}"`, `name_template: "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}"`,
		`name_template: "{{ .ProjectName }}_{{ .Version }}_SHA256SUMS"`} {
		if !strings.Contains(string(release), want) {
			t.Fatalf(".goreleaser.yml no longer has %s: the README's archive names and this test follow it", want)
		}
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := between(t, string(readme), "## Install\n", "\n## ")
	blocks := codeBlocks(section)
	shell, cliConfig, required := pick(t, blocks, "mkdir -p"), pick(t, blocks, "provider_installation"), pick(t, blocks, "required_providers")

	// The release archive, as goreleaser names and fills it.
	platform := runtime.GOOS + "_" + runtime.GOARCH
	dir := t.TempDir()
	bin := filepath.Join(dir, "terraform-provider-tenant_v"+releaseVersion)
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+releaseVersion, "-o", bin, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	archive := fmt.Sprintf("terraform-provider-tenant_%s_%s.zip", releaseVersion, platform)
	zipBinary(t, filepath.Join(dir, archive), bin)
	sum, err := os.ReadFile(filepath.Join(dir, archive))
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256(sum)
	sums := fmt.Sprintf("%s  %s\n", hex.EncodeToString(digest[:]), archive)
	if err := os.WriteFile(filepath.Join(dir, "terraform-provider-tenant_"+releaseVersion+"_SHA256SUMS"), []byte(sums), 0o600); err != nil {
		t.Fatal(err)
	}

	// The README's commands, with the mirror in a temporary folder.
	mirror := filepath.Join(t.TempDir(), "mirror")
	local := func(s string) string {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "/opt/terraform-mirror", mirror), "linux_amd64", platform)
		if acctest.OpenTofu() {
			// "OpenTofu reads the same layout under registry.opentofu.org".
			s = strings.ReplaceAll(s, "registry.terraform.io", "registry.opentofu.org")
		}
		return s
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", local(shell))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's commands: %v\n%s", err, out)
	}
	rc := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(rc, []byte(local(cliConfig)), 0o600); err != nil {
		t.Fatal(err)
	}

	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	work := t.TempDir()
	config := required + "\nprovider \"tenant\" {}\n\nresource \"tenant_role\" \"installed\" {\n  name = \"installed\"\n}\n"
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"TENANT_DOMAIN="+emu.Domain(), "TENANT_CLIENT_ID="+emu.ClientID(), "TENANT_CLIENT_SECRET="+emu.ClientSecret(), "TENANT_API_TOKEN=")
	run := func(args ...string) string {
		t.Helper()
		c := exec.Command(terraformBinary(t), args...)
		c.Dir, c.Env = work, env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	out := run("init", "-input=false", "-no-color")
	if !regexp.MustCompile(`Installing tenant-iac/tenant v` + regexp.QuoteMeta(releaseVersion)).MatchString(out) {
		t.Fatalf("init did not install %s from the mirror:\n%s", releaseVersion, out)
	}
	lock, err := os.ReadFile(filepath.Join(work, ".terraform.lock.hcl"))
	if err != nil || !strings.Contains(string(lock), `version     = "`+releaseVersion+`"`) {
		t.Fatalf("no lock file to commit: %v\n%s", err, lock)
	}
	run("apply", "-auto-approve", "-input=false", "-no-color")
	run("destroy", "-auto-approve", "-input=false", "-no-color")
}

// between is the text of s from start up to the next end.
func between(t *testing.T, s, start, end string) string {
	t.Helper()
	i := strings.Index(s, start)
	if i < 0 {
		t.Fatalf("no %q", start)
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		s = s[:j]
	}
	return s
}

var fence = regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")

func codeBlocks(s string) []string {
	var out []string
	for _, m := range fence.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// pick is the one block that holds marker.
func pick(t *testing.T, blocks []string, marker string) string {
	t.Helper()
	for _, b := range blocks {
		if strings.Contains(b, marker) {
			return b
		}
	}
	t.Fatalf("the README's Install section has no block with %q", marker)
	return ""
}

func zipBinary(t *testing.T, path, bin string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	body, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	h := &zip.FileHeader{Name: filepath.Base(bin), Method: zip.Deflate}
	h.SetMode(0o755)
	entry, err := w.CreateHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := entry.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
