package actionruntime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// newInstaller is an installer closed when the test ends.
func newInstaller(t *testing.T, o InstallerOptions) *Installer {
	t.Helper()
	in := NewInstaller(o)
	t.Cleanup(in.Close)
	return in
}

// An install that does not end within its limit is ended with its process
// group, and so is one under way when the installer closes.
func TestInstall_endsWithItsLimitAndItsOwner(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit time.Duration
		want  string
	}{
		{"limit", 5 * time.Second, "npm install did not end within 5s"},
		{"close", time.Hour, "the emulator stopped during npm install"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			npm := emutest.NewFakeNpm(t)
			in := NewInstaller(InstallerOptions{Cache: t.TempDir(), Npm: npm.Path, Timeout: tc.limit})
			defer in.Close()
			i := in.Install([]Dependency{{Name: "left-pad", Version: "1.3.0"}}, func(string, ...any) {})
			pids := npm.PIDs(t)
			if tc.name == "close" {
				in.Close()
			}
			outcome, detail, err := i.Wait(context.Background())
			if err != nil || outcome != NotInstalled || detail != tc.want {
				t.Fatalf("outcome %d %q %v", outcome, detail, err)
			}
			for _, pid := range pids {
				if emutest.Running(pid) {
					t.Errorf("process %d of the ended install still runs", pid)
				}
			}
		})
	}
}

// A published package installs, once per dependency set: the second
// build of the same set finds it in the package cache.
func TestPackages_installOncePerSet(t *testing.T) {
	emutest.RequireNpm(t)
	in := newInstaller(t, InstallerOptions{Cache: t.TempDir()})
	log := &emutest.Log{}
	deps := []Dependency{{Name: "left-pad", Version: "1.3.0"}}
	i := in.Install(deps, log.Printf)
	<-i.done
	if i.outcome != Installed {
		t.Fatalf("install: %d %s", i.outcome, i.detail)
	}
	if _, err := os.Stat(filepath.Join(i.Dir, "node_modules", "left-pad", "package.json")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "npm: installed left-pad@1.3.0") {
		t.Fatalf("log %q", log.String())
	}
	// The same set in another order, and a new installer of the same cache
	// (another emulator): no second npm run.
	fresh := newInstaller(t, InstallerOptions{Cache: in.dir})
	again := fresh.Install([]Dependency{{Name: "left-pad", Version: "1.3.0"}}, log.Printf)
	if over, outcome, _ := again.Finished(); !over || outcome != Installed || again.Dir != i.Dir {
		t.Fatalf("the cached set was installed again: over %v, outcome %d, %s vs %s", over, outcome, again.Dir, i.Dir)
	}
	if other := SetKey([]Dependency{{Name: "left-pad", Version: "1.3.1"}}, ""); other == i.key {
		t.Fatal("another version is the same set")
	}
}

// npm's answers tell a package that does not exist (the build fails) from
// a registry that cannot be reached (the build goes on as without npm).
func TestPackages_classifyFailures(t *testing.T) {
	emutest.RequireNpm(t)
	missing := newInstaller(t, InstallerOptions{Cache: t.TempDir()})
	for _, deps := range [][]Dependency{
		{{Name: "tenant-emulator-no-such-package-7f3a9c", Version: "1.0.0"}},
		{{Name: "left-pad", Version: "99.0.0"}},
	} {
		i := missing.Install(deps, func(string, ...any) {})
		<-i.done
		if i.outcome != Missing || i.detail == "" {
			t.Fatalf("%v: outcome %d (%s), want missing", deps, i.outcome, i.detail)
		}
	}
	unreachable := newInstaller(t, InstallerOptions{Cache: t.TempDir(), Registry: "http://127.0.0.1:1/"})
	i := unreachable.Install([]Dependency{{Name: "left-pad", Version: "1.3.0"}}, func(string, ...any) {})
	<-i.done
	if i.outcome != NotInstalled || !strings.Contains(i.detail, "ECONNREFUSED") {
		t.Fatalf("outcome %d (%s), want unavailable", i.outcome, i.detail)
	}
	noNpm := newInstaller(t, InstallerOptions{Cache: t.TempDir(), Npm: filepath.Join(t.TempDir(), "no-npm")})
	i = noNpm.Install([]Dependency{{Name: "left-pad", Version: "1.3.0"}}, func(string, ...any) {})
	if over, outcome, _ := i.Finished(); !over || outcome != NotInstalled || !strings.Contains(i.detail, "npm was not found") {
		t.Fatalf("without npm: %v %d %s", over, outcome, i.detail)
	}
}

func TestNpmrcFor(t *testing.T) {
	got, bad := npmrcFor([]Dependency{
		{Name: "@acme/sdk", Version: "1.0.0", RegistryURL: "https://npm.acme.example/"},
		{Name: "left-pad", Version: "1.3.0"},
	}, "https://mirror.example/")
	if bad != "" || got != "@acme:registry=https://npm.acme.example/\nregistry=https://mirror.example/\n" {
		t.Fatalf("npmrc %q %q", got, bad)
	}
	if _, bad := npmrcFor([]Dependency{
		{Name: "a", Version: "1.0.0", RegistryURL: "https://one.example/"},
		{Name: "b", Version: "1.0.0", RegistryURL: "https://two.example/"},
	}, ""); bad == "" {
		t.Fatal("two registries for unscoped packages were accepted")
	}
}
