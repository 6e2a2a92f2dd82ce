package tenant

import (
	"encoding/json"
	"maps"
)

// Tenant settings (GET and PATCH /api/v2/tenants/settings): the emulator
// models default_audience, which the token endpoint uses when a request
// names no audience (token-exchange-flow.md §5 [R]); every other setting
// is kept as it was sent and shown back, not acted on.

// SettingsScopes are the Management API's scopes of the tenant settings.
var SettingsScopes = []string{"read:tenant_settings", "update:tenant_settings"}

// DefaultAudience is the tenant's default audience ("" when none is set).
// Under the lock.
func (s *Tenant) DefaultAudience() string {
	var aud string
	_ = json.Unmarshal(s.St.TenantSettings["default_audience"], &aud)
	return aud
}

// UpdateSettings merges a PATCH body's top-level keys into the settings:
// a key sent replaces the stored one, null removes it. Under the lock.
func (s *Tenant) UpdateSettings(body map[string]json.RawMessage) {
	m := maps.Clone(s.St.TenantSettings)
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	for k, v := range body {
		if string(v) == "null" {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	s.St.TenantSettings = m
}
