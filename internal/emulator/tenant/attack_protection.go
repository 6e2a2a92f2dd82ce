package tenant

import (
	"net/netip"
	"slices"
	"strings"
	"time"
)

// Suspicious IP Throttling (GET and PATCH
// /api/v2/attack-protection/suspicious-ip-throttling; token-exchange-flow.md
// §5 [R]): the emulator acts on the pre-custom-token-exchange stage only,
// which throttles addresses that send rejected subject tokens; the other
// stages are kept as sent.

// The stages, and their defaults (the attack-protection documentation [R]:
// max_attempts, and rate in milliseconds, the time one attempt takes to
// come back).
const ExchangeStage = "pre-custom-token-exchange"

// IPThrottling is the setting as the API shows it.
type IPThrottling struct {
	Enabled   bool                     `json:"enabled"`
	Shields   []string                 `json:"shields"`
	Allowlist []string                 `json:"allowlist"`
	Stage     map[string]ThrottleStage `json:"stage"`
}

// ThrottleStage is one stage's bucket: its size and its refill interval
// (milliseconds).
type ThrottleStage struct {
	MaxAttempts int64 `json:"max_attempts"`
	Rate        int64 `json:"rate"`
}

// ThrottlingScopes are the Management API's scopes of attack protection.
var ThrottlingScopes = []string{"read:attack_protection", "update:attack_protection"}

// DefaultIPThrottling is a new tenant's setting: on, blocking and
// notifying, the platform's default stages.
func DefaultIPThrottling() *IPThrottling {
	return &IPThrottling{Enabled: true, Shields: []string{"admin_notification", "block"}, Allowlist: []string{}, Stage: map[string]ThrottleStage{
		"pre-login":             {MaxAttempts: 100, Rate: 864000},
		"pre-user-registration": {MaxAttempts: 50, Rate: 1200},
		ExchangeStage:           {MaxAttempts: 10, Rate: 600000},
	}}
}

// Clone deep-copies the setting.
func (t *IPThrottling) Clone() *IPThrottling {
	if t == nil {
		return nil
	}
	c := *t
	c.Shields, c.Allowlist = slices.Clone(t.Shields), slices.Clone(t.Allowlist)
	c.Stage = map[string]ThrottleStage{}
	for k, v := range t.Stage {
		c.Stage[k] = v
	}
	return &c
}

// SeedIPThrottling gives the tenant its setting when it has none (a new
// tenant, or a state file from before it was kept), and applies the
// emulator's flags over it: off, or the exchange stage's size and rate.
func (s *Tenant) SeedIPThrottling(off bool, maxAttempts int, rate time.Duration) {
	if s.St.IPThrottling == nil {
		s.St.IPThrottling = DefaultIPThrottling()
	}
	t := s.St.IPThrottling
	if off {
		t.Enabled = false
	}
	st := t.Stage[ExchangeStage]
	if maxAttempts > 0 {
		st.MaxAttempts = int64(maxAttempts)
	}
	if rate > 0 {
		st.Rate = rate.Milliseconds()
	}
	t.Stage[ExchangeStage] = st
}

// ExchangeThrottle is what the exchange's throttle applies to ip: whether
// it blocks (enabled, with the block shield, and ip not allowlisted), the
// bucket's size, and how long one attempt takes to come back. Under the
// lock.
func (s *Tenant) ExchangeThrottle(ip string) (blocks bool, maxAttempts int64, rate time.Duration) {
	t := s.St.IPThrottling
	if t == nil {
		t = DefaultIPThrottling()
	}
	st := t.Stage[ExchangeStage]
	return t.Enabled && slices.Contains(t.Shields, "block") && !allowlisted(t.Allowlist, ip), st.MaxAttempts, time.Duration(st.Rate) * time.Millisecond
}

// allowlisted reports whether ip is one of the list's addresses or in one
// of its CIDR ranges.
func allowlisted(list []string, ip string) bool {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	for _, e := range list {
		if strings.Contains(e, "/") {
			if p, err := netip.ParsePrefix(e); err == nil && p.Contains(addr) {
				return true
			}
		} else if a, err := netip.ParseAddr(e); err == nil && a == addr {
			return true
		}
	}
	return false
}
