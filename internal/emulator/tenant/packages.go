package tenant

import (
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
)

// An action's dependencies are installed for real, with npm, when a version
// is built (actionruntime.Installer).

// The build hooks: a build whose dependencies npm installs is not over
// before the install is, and fails when npm says a dependency does not
// exist. An install that could not reach npm or the registry leaves the
// build as it would be without npm.

// installing reports whether the build's npm install still runs.
func (b *Build) installing() bool {
	if b.Install == nil {
		return false
	}
	over, _, _ := b.Install.Finished()
	return !over
}

// installFailed reports whether npm found a dependency that does not exist.
func (b *Build) installFailed() bool {
	if b.Install == nil {
		return false
	}
	over, outcome, _ := b.Install.Finished()
	return over && outcome == actionruntime.Missing
}

// afterInstall moves the end of a build past the end of its install.
func (b *Build) afterInstall(end time.Time) time.Time {
	if b.Install == nil {
		return end
	}
	if over, _, at := b.Install.Finished(); over && at.After(end) {
		return at
	}
	return end
}

// installDependencies starts the npm install of a draft's dependencies when
// its build starts.
func (s *Tenant) installDependencies(a *Action) *actionruntime.Install {
	return s.Installer.Install(RuntimeDeps(a.Dependencies), s.Logf)
}

// RuntimeDeps are the dependencies as the installer takes them.
func RuntimeDeps(deps []Dependency) []actionruntime.Dependency {
	out := make([]actionruntime.Dependency, 0, len(deps))
	for _, d := range deps {
		out = append(out, actionruntime.Dependency(d))
	}
	return out
}
