package mgmtapi

import (
	"net/http"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// GET and PATCH /tenants/settings (tenant/settings.go): default_audience is
// checked and used; the other settings are kept as sent.
//
// Assumptions [?] (the reference records neither answer): a fresh tenant
// shows {} (a tenant shows many settings the emulator does not model);
// PATCH merges the body's top-level keys, null removing one, and answers
// the settings as they now are; default_audience is not checked against
// the tenant's APIs ("" unsets it, as null does).

func (s *Server) getTenantSettings(w http.ResponseWriter, r *http.Request, c *caller) *wire.Error {
	wire.WriteJSON(w, 200, s.settingsView())
	return nil
}

func (s *Server) updateTenantSettings(w http.ResponseWriter, r *http.Request, c *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if b.Has("default_audience") && !b.IsNull("default_audience") {
		if _, e := b.Str("default_audience", false, 0, 0); e != nil {
			return e
		}
	}
	s.UpdateSettings(b)
	wire.WriteJSON(w, 200, s.settingsView())
	return nil
}

func (s *Server) settingsView() any {
	if len(s.St.TenantSettings) == 0 {
		return map[string]any{}
	}
	return s.St.TenantSettings
}
