package tenant_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// newTenant is an empty tenant whose builds take a second and run no npm.
func newTenant(t *testing.T) *tenant.Tenant {
	t.Helper()
	in := actionruntime.NewInstaller(actionruntime.InstallerOptions{Cache: t.TempDir(), Npm: filepath.Join(t.TempDir(), "no-npm")})
	t.Cleanup(in.Close)
	tn := &tenant.Tenant{St: tenant.NewStore(), Host: "127.0.0.1:8787", Name: "test", BuildDelay: time.Second, Installer: in}
	if err := tn.Assume.Normalize(); err != nil {
		t.Fatal(err)
	}
	return tn
}

func newAction(deps int) *tenant.Action {
	a := &tenant.Action{Name: "a", Triggers: []tenant.Trigger{{ID: "custom-token-exchange", Version: "v1"}}, Code: "x",
		Dependencies: []tenant.Dependency{}, Runtime: "node22", Secrets: []tenant.Secret{}, Versions: []*tenant.ActionVersion{}}
	for i := range deps {
		a.Dependencies = append(a.Dependencies, tenant.Dependency{Name: fmt.Sprintf("dep-%d", i), Version: "1.0.0"})
	}
	return a
}

// A build goes through its phases in its time and, asked to, deploys the
// version it makes once it is over; one with more dependencies than an
// action may have fails, through the failing phases, and deploys nothing.
func TestBuild_phasesAndDeploy(t *testing.T) {
	tn := newTenant(t)
	start := time.Now()
	a := newAction(1)
	tn.AddAction(a, start, true)
	if st := a.Build.Status(start); st != "pending" || a.Deployed() != nil {
		t.Fatalf("at its start: %s, deployed %v", st, a.Deployed())
	}
	if st := a.Build.Status(start.Add(500 * time.Millisecond)); st != "building" {
		t.Fatalf("half way: %s", st)
	}
	over := start.Add(time.Hour)
	a.Settle(over)
	if st := a.Build.Status(over); st != "built" || a.Deployed() == nil || a.Deployed().Number != 1 || !a.AllChangesDeployed {
		t.Fatalf("once over: %s, deployed %+v", st, a.Deployed())
	}

	many := newAction(11)
	tn.AddAction(many, start, true)
	many.Settle(over)
	if st := many.Build.Status(over); st != "failed" || many.Deployed() != nil || !slices.Equal(many.Build.Phases(), tenant.BuildFails) {
		t.Fatalf("11 dependencies: %s through %v, deployed %+v", st, many.Build.Phases(), many.Deployed())
	}
}

// The state file gives the tenant back as it was saved, with the default
// client's credentials.
func TestState_roundTrip(t *testing.T) {
	tn := newTenant(t)
	a := newAction(0)
	tn.AddAction(a, time.Now().Add(-time.Hour), true)
	a.Settle(time.Now())
	tn.St.Roles["rol_1"] = &tenant.Role{ID: "rol_1", Name: "readers", Seq: tn.St.Next()}
	path := filepath.Join(t.TempDir(), "state.json")
	if err := tn.SaveState(path, "cid", "csecret"); err != nil {
		t.Fatal(err)
	}
	st, err := tenant.LoadState(path)
	if err != nil {
		t.Fatal(err)
	}
	back := st.Store.Actions[a.ID]
	if st.ClientID != "cid" || st.ClientSecret != "csecret" || back == nil || back.Deployed() == nil || back.Deployed().Number != 1 ||
		st.Store.Roles["rol_1"] == nil || st.Store.Roles["rol_1"].Seq != tn.St.Roles["rol_1"].Seq {
		t.Fatalf("loaded %+v", st)
	}
	if missing, err := tenant.LoadState(filepath.Join(t.TempDir(), "none.json")); missing != nil || err != nil {
		t.Fatalf("a missing file: %v %v", missing, err)
	}
}

func TestWellFormedVersion_grammar(t *testing.T) {
	for v, want := range map[string]bool{
		"2.42.0": true, "v1.2.3": true, "=1.2.3": true, "1.0.0-rc.1+build.5": true, " 1.2.3 ": true,
		"^1.2.3": true, "~1.2": true, "~> 1.2": true, "1.x": true, "1.2.*": true, "*": true, "": true,
		">= 1.0.0 < 2": true, "1.2.3 - 2.3.4": true, "<1 || >=3.0.0-beta": true,
		"latest": true, "next": true, "beta-2": true, "1.2.3.4": true,
		"not a version!": false, "^1.2.3 <": false, "1.2.3 -": false, ">=01.2.3 <2": false, "^x.y": false,
		"https://example.com/x.tgz": false, "git+ssh://git@github.com/a/b.git": false, "npm:other@1.0.0": false,
		"file:../x": false, "1.2.3 || >": false, "^1.2.3+": false,
	} {
		if got := tenant.WellFormedVersion(v); got != want {
			t.Errorf("wellFormedVersion(%q) = %v, want %v", v, got, want)
		}
	}
}
