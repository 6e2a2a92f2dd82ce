package tenant

import (
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Deploys as a step of their own (Assume.ActionDeploy "separate"): the
// version a deploy makes shows in current_version at once, but
// deployed_version and all_changes_deployed change only when the step ends,
// half a build later. With "together" the step takes no time.

// PendingDeploy is a version made by a deploy whose step has not ended.
type PendingDeploy struct {
	// Number is the version's number (0: no deploy pending).
	Number int
	// At is when the step ends.
	At time.Time
	// Stale says that the draft changed (a PATCH) since the deploy was
	// asked: the version deployed is not the latest code.
	Stale bool
}

// DeployStep is how long a deploy takes to show.
func (s *Tenant) DeployStep() time.Duration {
	if s.Assume.ActionDeploy == "separate" {
		return max(s.BuildDelay/2, time.Nanosecond)
	}
	return 0
}

// Deploy makes a new version from the built draft at, with id when given
// (a deploy asked before the build ended answered with it), and deploys it
// at once or, with a step, when the step ends.
func (a *Action) Deploy(at time.Time, step time.Duration, id string) *ActionVersion {
	if id == "" {
		id = wire.UUID4()
	}
	v := &ActionVersion{
		ID: id, Number: len(a.Versions) + 1, Code: a.Code, Dependencies: append([]Dependency{}, a.Dependencies...),
		Secrets: SecretViews(a.Secrets), SecretValues: SecretValues(a.Secrets), Runtime: a.Runtime, Triggers: append([]Trigger{}, a.Triggers...),
		BuiltAt: wire.Nanos(a.Build.BuiltAt), CreatedAt: wire.Nanos(at), UpdatedAt: wire.Nanos(at),
	}
	a.Versions = append(a.Versions, v)
	a.Deploying = PendingDeploy{Number: v.Number, At: at.Add(step)}
	a.finishDeploy(at)
	return v
}

// finishDeploy deploys the pending version once its step has ended by now.
func (a *Action) finishDeploy(now time.Time) {
	d := a.Deploying
	if d.Number == 0 || now.Before(d.At) {
		return
	}
	for _, v := range a.Versions {
		v.Deployed = v.Number == d.Number
	}
	a.AllChangesDeployed = !d.Stale
	a.Deploying = PendingDeploy{}
}

// DeployWhenBuilt asks for a deploy of the draft whose build has not ended
// (Assume.DeployUnbuilt "wait"): the answer is the version the build will
// make, with its id and number; a build that fails makes none.
func (a *Action) DeployWhenBuilt(now time.Time) *ActionVersion {
	if a.Build.DeployID == "" {
		a.Build.DeployID = wire.UUID4()
	}
	a.Build.Deploy = true
	return &ActionVersion{
		ID: a.Build.DeployID, Number: len(a.Versions) + 1, Code: a.Code, Dependencies: append([]Dependency{}, a.Dependencies...),
		Secrets: SecretViews(a.Secrets), Runtime: a.Runtime, Triggers: append([]Trigger{}, a.Triggers...),
		CreatedAt: wire.Nanos(now), UpdatedAt: wire.Nanos(now),
	}
}
