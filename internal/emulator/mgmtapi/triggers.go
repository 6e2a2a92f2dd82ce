package mgmtapi

import (
	"net/http"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// triggerInfo is one version of a trigger as GET /actions/triggers shows it,
// in the recorded key order (TestActionManager_Triggers.yaml).
type triggerInfo struct {
	ID                 string           `json:"id"`
	Version            string           `json:"version"`
	Status             string           `json:"status"`
	Runtimes           []string         `json:"runtimes"`
	DefaultRuntime     string           `json:"default_runtime,omitempty"`
	CompatibleTriggers []tenant.Trigger `json:"compatible_triggers"`
}

// currentRuntimes are what a current trigger offers: the runtimes an
// action may be created with (actionRuntimes, but the node18-actions alias
// that only a PATCH was seen to set), node22 the default (reference §2).
var currentRuntimes = []string{"node18", "node22"}

// triggerCatalogue is every trigger version, in the recorded order.
//
// The recording (2023) holds the trigger ids, versions, statuses and
// compatible triggers of every entry but the last two, and the runtimes of
// the deprecated versions. Assumptions: a current version offers the
// runtimes the emulator builds (currentRuntimes), since the recorded ones
// (node12, node16, node18, default node16) are those of 2023; the triggers
// the recording predates, password-reset-post-challenge and
// custom-token-exchange (reference §2: version v1), have one current
// version, v1, compatible with nothing.
var triggerCatalogue = func() []triggerInfo {
	deprecated := func(id, version string) triggerInfo {
		return triggerInfo{ID: id, Version: version, Status: "DEPRECATED", Runtimes: []string{"node12"}, DefaultRuntime: "node12", CompatibleTriggers: []tenant.Trigger{}}
	}
	current := func(id, version string, compatible ...tenant.Trigger) triggerInfo {
		return triggerInfo{ID: id, Version: version, Status: "CURRENT", Runtimes: currentRuntimes, DefaultRuntime: "node22", CompatibleTriggers: append([]tenant.Trigger{}, compatible...)}
	}
	phoneV1 := deprecated("send-phone-message", "v1")
	phoneV1.DefaultRuntime = "" // recorded without one
	postLoginV2 := deprecated("post-login", "v2")
	postLoginV2.Runtimes, postLoginV2.DefaultRuntime = []string{"node12", "node16", "node18"}, "node16"
	return []triggerInfo{
		deprecated("post-login", "v1"),
		postLoginV2,
		current("post-login", "v3", tenant.Trigger{ID: "post-login", Version: "v2"}),
		current("credentials-exchange", "v2"),
		deprecated("credentials-exchange", "v1"),
		deprecated("pre-user-registration", "v1"),
		current("pre-user-registration", "v2"),
		deprecated("post-user-registration", "v1"),
		current("post-user-registration", "v2"),
		current("post-change-password", "v2"),
		deprecated("post-change-password", "v1"),
		phoneV1,
		current("send-phone-message", "v2"),
		current("password-reset-post-challenge", "v1"),
		current("custom-token-exchange", "v1"),
	}
}()

// listTriggers answers {"triggers": [...]}, every trigger version
// (GET /actions/triggers takes no parameter, published specification).
func (s *Server) listTriggers(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, wire.Ordered{{"triggers", wire.Each(sel, triggerCatalogue)}})
	return nil
}
