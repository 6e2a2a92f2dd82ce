package oauth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// The actions an exchange runs, its custom-token-exchange action and then
// the post-login actions, run one way: each at its deployed version in the
// action runtime, without the store's lock, within its own time limit, and
// how it ended becomes the exchange's answer.

// actionRun is one action an exchange runs.
type actionRun struct {
	action  *tenant.Action
	version *tenant.ActionVersion
	// trigger is the trigger the action runs for, whose cache it reads and
	// writes (api object [R]: the cache is "scoped to the Trigger").
	trigger string
	event   map[string]any
}

func (ar actionRun) postLogin() bool { return ar.trigger == postLoginTrigger }

// describe names the action in the emulator's log.
func (ar actionRun) describe() string {
	kind := "action"
	if ar.postLogin() {
		kind = "post-login action"
	}
	return fmt.Sprintf("%s %q (%s) version %d", kind, ar.action.Name, ar.action.ID, ar.version.Number)
}

// errCallerGone ends an exchange whose caller has gone: nothing of it is
// kept, and nobody is there to read an answer.
var errCallerGone = &exchangeFailure{code: "caller gone"}

// runAction runs one action of an exchange, with the cache records its
// trigger holds plus the exchange's own writes so far, and adds its cache
// writes to them. An action that does not return, or throws, is a failure
// whose detail goes to the log (§4 [?], see errActionFailed).
func (s *Server) runAction(ctx context.Context, ar actionRun, writes cacheWrites) (*actionruntime.Result, *exchangeFailure) {
	v := ar.version
	code := actionruntime.Version{ActionID: ar.action.ID, ActionName: ar.action.Name, VersionID: v.ID, Number: v.Number, Code: v.Code}
	failed, timedOut := ActionFailed, ActionTimeout
	if ar.postLogin() {
		code.Handler = actionruntime.PostLoginHandler
		failed, timedOut = PostLoginFailed, PostLoginTimeout
	}
	if len(v.Dependencies) > 0 {
		dir, f := s.versionPackages(ctx, v)
		if f != nil {
			return nil, f
		}
		code.Packages = dir
	}
	s.Lock()
	cache := writes.over(s.cacheRecords(ar.trigger, time.Now()), ar.trigger)
	s.Unlock()

	res, err := s.runtime.Run(ctx, code, ar.event, cache)
	var re *actionruntime.Error
	switch {
	case errors.As(err, &re) && re.Kind == actionruntime.Cancelled:
		s.Logf("%s: stopped, %s", ar.describe(), re.Message)
		return nil, errCallerGone
	case errors.As(err, &re) && re.Kind == actionruntime.Unavailable:
		s.Logf("%s cannot run: %s", ar.describe(), re.Message)
		return nil, refuse(500, "server_error", "The emulator cannot run the action: %s.", strings.TrimSuffix(re.Message, "."))
	case errors.As(err, &re) && re.Kind == actionruntime.Timeout:
		s.Logf("%s: %s", ar.describe(), re.Message)
		return nil, refuse(500, "server_error", "%s", timedOut)
	case err != nil:
		s.Logf("%s failed: %v", ar.describe(), err)
		return nil, refuse(500, "server_error", "%s", failed)
	}
	writes[ar.trigger] = append(writes[ar.trigger], res.Cache...)
	if res.Thrown != nil {
		s.Logf("%s threw %s: %s", ar.describe(), res.Thrown.Name, res.Thrown.Message)
		return nil, refuse(500, "server_error", "%s", failed)
	}
	return res, nil
}

// cacheWrites are the cache writes of one exchange's actions, by trigger,
// in order: the exchange's later actions see them, and they are stored
// once the exchange ends.
type cacheWrites map[string][]actionruntime.CacheWrite

// over applies the trigger's writes to records.
func (c cacheWrites) over(records map[string]actionruntime.CacheRecord, trigger string) map[string]actionruntime.CacheRecord {
	for _, w := range c[trigger] {
		switch w.Op {
		case "set":
			records[w.Key] = actionruntime.CacheRecord{Value: w.Value, ExpiresAt: w.ExpiresAt}
		case "delete":
			delete(records, w.Key)
		}
	}
	return records
}

// store applies the writes to the tenant's caches, once. Under the lock.
func (c cacheWrites) store(s *Server, now time.Time) {
	for trigger, list := range c {
		s.applyCacheWrites(trigger, list, now)
	}
	clear(c)
}
