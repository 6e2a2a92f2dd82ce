package mgmtapi

import (
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
)

// RetireWorkers retires the workers of actions that are gone and of
// versions no longer deployed (a deploy or a rollback made another the
// deployed one): idle ones stop, busy ones finish their execution on
// their version first. Under the lock; called after every API request and
// reset.
func (s *Server) RetireWorkers() {
	now := time.Now()
	s.runtime.Retire(func(v actionruntime.Version) bool {
		a, ok := s.St.Actions[v.ActionID]
		if !ok {
			return true
		}
		a.Settle(now)
		d := a.Deployed()
		return d == nil || d.ID != v.VersionID
	})
}
