package mgmtapi

import (
	"fmt"
	"math"
	"net/http"
	"net/netip"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// GET and PATCH /attack-protection/suspicious-ip-throttling
// (token-exchange-flow.md §5 [R]; tenant/attack_protection.go): the
// pre-custom-token-exchange stage drives the token exchange's throttle.
//
// Assumptions [?] (the reference gives the fields, not the PATCH's rules):
// PATCH replaces enabled, shields and allowlist when sent, and merges
// stage stage by stage and field by field; shields are block and
// admin_notification (the ones that apply to these stages); allowlist
// items are IP addresses or CIDR ranges; max_attempts and rate are
// positive integers; the other stages are kept, not acted on.

var (
	throttlingStages  = []string{"pre-login", "pre-user-registration", tenant.ExchangeStage}
	throttlingShields = []string{"block", "admin_notification"}
)

func (s *Server) getIPThrottling(w http.ResponseWriter, r *http.Request, c *caller) *wire.Error {
	wire.WriteJSON(w, 200, s.ipThrottling())
	return nil
}

func (s *Server) ipThrottling() *tenant.IPThrottling {
	if s.St.IPThrottling == nil {
		s.St.IPThrottling = tenant.DefaultIPThrottling()
	}
	return s.St.IPThrottling
}

func (s *Server) updateIPThrottling(w http.ResponseWriter, r *http.Request, c *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("enabled", "shields", "allowlist", "stage"); e != nil {
		return e
	}
	next := s.ipThrottling().Clone()
	enabled, e := b.Bool("enabled")
	if e != nil {
		return e
	}
	if enabled != nil {
		next.Enabled = *enabled
	}
	if b.Has("shields") {
		if next.Shields, e = stringList(b.At(""), "shields", throttlingShields); e != nil {
			return e
		}
	}
	if b.Has("allowlist") {
		if next.Allowlist, e = stringList(b.At(""), "allowlist", nil); e != nil {
			return e
		}
		for i, v := range next.Allowlist {
			if !ipOrRange(v) {
				return wire.PayloadErr(fmt.Sprintf("Object didn't pass validation for format ipv4-or-cidr: %s", v), fmt.Sprintf("allowlist[%d]", i))
			}
		}
	}
	stages, ok, e := b.At("").Object("stage")
	if e != nil {
		return e
	}
	if ok {
		if e := stages.Only(throttlingStages...); e != nil {
			return e
		}
		for _, name := range throttlingStages {
			st, ok, e := stages.Object(name)
			if e != nil {
				return e
			}
			if !ok {
				continue
			}
			if e := st.Only("max_attempts", "rate"); e != nil {
				return e
			}
			cur := next.Stage[name]
			for k, dst := range map[string]*int64{"max_attempts": &cur.MaxAttempts, "rate": &cur.Rate} {
				v, e := st.Int(k, 1, math.MaxInt32)
				if e != nil {
					return e
				}
				if v != nil {
					*dst = *v
				}
			}
			next.Stage[name] = cur
		}
	}
	s.St.IPThrottling = next
	wire.WriteJSON(w, 200, next)
	return nil
}

func ipOrRange(v string) bool {
	if _, err := netip.ParseAddr(v); err == nil {
		return true
	}
	_, err := netip.ParsePrefix(v)
	return err == nil
}
