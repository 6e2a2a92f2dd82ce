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
	"strings"
	"sync"
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
	t.Parallel() // a folder, a home and an emulator of its own
	requireAcc(t)
	r := newReader(t)
	r.installAsReadme()

	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	required := pick(t, codeBlocks(readmeInstall(t)), "required_providers")
	r.write("main.tf", required+"\nprovider \"tenant\" {}\n\nresource \"tenant_role\" \"installed\" {\n  name = \"installed\"\n}\n")
	r.env = append(r.env, "TENANT_DOMAIN="+emu.Domain(), "TENANT_CLIENT_ID="+emu.ClientID(), "TENANT_CLIENT_SECRET="+emu.ClientSecret())
	out := r.terraform("init -input=false -no-color")
	if !regexp.MustCompile(`Installing tenant-iac/tenant v` + regexp.QuoteMeta(releaseVersion)).MatchString(out) {
		t.Fatalf("init did not install %s from the mirror:\n%s", releaseVersion, out)
	}
	if lock := r.read(".terraform.lock.hcl"); !strings.Contains(lock, `version     = "`+releaseVersion+`"`) {
		t.Fatalf("no lock file to commit:\n%s", lock)
	}
	r.terraform("apply -auto-approve -input=false -no-color")
	r.terraform("destroy -auto-approve -input=false -no-color")
}

// readmeInstall is the README's Install section.
func readmeInstall(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return between(t, string(readme), "## Install\n", "\n## ")
}

// installAsReadme does for the reader what the README's Install section
// says: the release's archive for this platform and its SHA256SUMS,
// downloaded into a folder; the section's commands, which check the
// archive and put it in the filesystem mirror (the reader's mirror folder
// for /opt/terraform-mirror, this platform for linux_amd64, OpenTofu's
// registry host when the tests run OpenTofu, as the section says); and its
// CLI configuration, in ~/.terraformrc.
func (r *reader) installAsReadme() {
	t := r.t
	t.Helper()
	release, err := os.ReadFile(filepath.Join(repoRoot(t), ".goreleaser.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`binary: "{{ .ProjectName }}_v{{ .Version }}"`, `name_template: "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}"`,
		`name_template: "{{ .ProjectName }}_{{ .Version }}_SHA256SUMS"`} {
		if !strings.Contains(string(release), want) {
			t.Fatalf(".goreleaser.yml no longer has %s: the README's archive names and this test follow it", want)
		}
	}
	blocks := codeBlocks(readmeInstall(t))
	shell, cliConfig := pick(t, blocks, "mkdir -p"), pick(t, blocks, "provider_installation")

	downloads := t.TempDir()
	archive := fmt.Sprintf("terraform-provider-tenant_%s_%s.zip", releaseVersion, platform())
	zipBinary(t, filepath.Join(downloads, archive), released(t).provider)
	body, err := os.ReadFile(filepath.Join(downloads, archive))
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256(body)
	sums := fmt.Sprintf("%s  %s\n", hex.EncodeToString(digest[:]), archive)
	if err := os.WriteFile(filepath.Join(downloads, "terraform-provider-tenant_"+releaseVersion+"_SHA256SUMS"), []byte(sums), 0o600); err != nil {
		t.Fatal(err)
	}

	local := func(s string) string {
		return openTofuHost(t, strings.ReplaceAll(strings.ReplaceAll(s, "/opt/terraform-mirror", r.mirror()), "linux_amd64", platform()))
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", local(shell))
	cmd.Dir, cmd.Env = downloads, r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's commands: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(r.home, ".terraformrc"), []byte(local(cliConfig)), 0o600); err != nil {
		t.Fatal(err)
	}
}

// mirror is the reader's folder for /opt/terraform-mirror.
func (r *reader) mirror() string { return filepath.Join(r.home, "terraform-mirror") }

// downloadEmulator puts the emulator's release archive for this platform
// into the reader's folder, as the release names it.
func (r *reader) downloadEmulator() {
	r.t.Helper()
	zipBinary(r.t, filepath.Join(r.dir, fmt.Sprintf("tenant-emulator_%s_%s.zip", releaseVersion, platform())), released(r.t).emulator)
}

// releaseBinaries are the provider and the emulator built as the release
// builds them, once per test process (TestMain removes them).
type releaseBinaries struct {
	provider, emulator string
}

var (
	releaseOnce  sync.Once
	releaseBuild releaseBinaries
	releaseErr   error
	releaseDir   string
)

func released(t *testing.T) releaseBinaries {
	t.Helper()
	root := repoRoot(t) // outside Do: a t.Fatal inside would leave the Once done and nothing built
	releaseOnce.Do(func() {
		if releaseDir, releaseErr = os.MkdirTemp("", "tenant-release-"); releaseErr != nil {
			return
		}
		releaseBuild = releaseBinaries{
			provider: filepath.Join(releaseDir, "terraform-provider-tenant_v"+releaseVersion),
			emulator: filepath.Join(releaseDir, "tenant-emulator"),
		}
		for _, b := range []struct{ out, pkg, ldflags string }{
			{releaseBuild.provider, ".", "-s -w -X main.version=" + releaseVersion},
			{releaseBuild.emulator, "./internal/emulator/cmd/tenant-emulator", "-s -w"},
		} {
			build := exec.Command("go", "build", "-trimpath", "-ldflags", b.ldflags, "-o", b.out, b.pkg)
			build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
			if out, err := build.CombinedOutput(); err != nil {
				releaseErr = fmt.Errorf("go build %s: %v\n%s", b.pkg, err, out)
				return
			}
		}
	})
	if releaseErr != nil {
		t.Fatal(releaseErr)
	}
	return releaseBuild
}

func TestMain(m *testing.M) {
	code := acctest.Main(m)
	if releaseDir != "" {
		os.RemoveAll(releaseDir)
	}
	os.Exit(code)
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
