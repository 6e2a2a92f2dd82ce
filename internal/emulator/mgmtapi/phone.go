package mgmtapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// listPhoneProviders answers {"providers": [...]}, only the disabled (or
// enabled) ones with disabled=true (false), the specification's query
// (reference §5); in a list each provider shows "credentials": null after
// its configuration, as the recorded list did (go-auth0
// TestBrandingManager_ListPhoneProviders.yaml), while a single provider's
// answer has no credentials key (reference §5).
//
// Assumption (reference §5 is silent): another value of disabled is a
// query validation error, worded as the action list's.
func (s *Server) listPhoneProviders(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	disabled := r.URL.Query().Get("disabled")
	if disabled != "" && disabled != "true" && disabled != "false" {
		return wire.NewErr(400, "Query validation error: 'Expected type boolean but found type string' on property disabled.", "invalid_query_string")
	}
	items := []wire.Ordered{}
	for _, p := range s.St.PhoneProviders {
		if disabled != "" && (disabled == "true") != p.Disabled {
			continue
		}
		o := wire.Ordered{{"id", p.ID}, {"tenant", p.Tenant}, {"name", p.Name}, {"channel", p.Channel}, {"disabled", p.Disabled}}
		if p.Configuration != nil {
			o = append(o, wire.Ordered{{"configuration", p.Configuration}}...)
		}
		items = append(items, append(o, wire.Ordered{{"credentials", nil}, {"created_at", p.CreatedAt}, {"updated_at", p.UpdatedAt}}...))
	}
	wire.WriteJSON(w, 200, wire.Ordered{{"providers", wire.Each(sel, items)}})
	return nil
}

func (s *Server) phoneProvider(r *http.Request) (*tenant.PhoneProvider, *wire.Error) {
	id := wire.PathID(r)
	// Assumption (reference §0.3 observed path errors elsewhere): an id over
	// 255 characters is a path validation error with errorCode invalid_uri.
	if utf8.RuneCountInString(id) > 255 {
		return nil, wire.NewErr(400, "Path validation error: 'String is too long ("+strconv.Itoa(utf8.RuneCountInString(id))+" chars), maximum 255' on property id.", "invalid_uri")
	}
	p, ok := s.St.PhoneProviders[id]
	if !ok {
		// The API's one error shape, without errorCode here (reference §0.3, §0.4).
		return nil, wire.NewErr(404, "Notification Resource not found", "")
	}
	return p, nil
}

// applyPhone validates name, disabled, configuration and credentials, and
// returns the credentials sent (nil when none were).
//
// Assumption (reference §5 gives credentials as twilio {"auth_token":
// 1–255} and custom {}): credentials is an object whose only key is
// auth_token, a string of 1 to 255 characters; a Twilio provider is created
// with one, or refused as a Twilio create without default_from is ("Bad
// Operation on Notification Resource"); a custom provider's auth_token is
// kept like any other, since the API does not cross-check the name with
// the rest (reference §5).
func applyPhone(p *tenant.PhoneProvider, b wire.Body, create bool) (map[string]string, *wire.Error) {
	creds, e := phoneCredentials(b)
	if e != nil {
		return nil, e
	}
	return creds, applyPhoneFields(p, b, create, creds)
}

func phoneCredentials(b wire.Body) (map[string]string, *wire.Error) {
	if !b.Has("credentials") {
		return nil, nil
	}
	c, ok, e := b.At("").Object("credentials")
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, b.At("").TypeErr("credentials", "object")
	}
	if e := c.Only("auth_token"); e != nil {
		return nil, e
	}
	creds := map[string]string{}
	if c.Has("auth_token") {
		tok, e := c.Str("auth_token", true, 1, 255)
		if e != nil {
			return nil, e
		}
		creds["auth_token"] = tok
	}
	return creds, nil
}

// Which keys each object takes (published specification): the create body
// allows other keys (additionalProperties true, reference §7), which are
// ignored; the PATCH body does not. configuration is a Twilio one (sid,
// delivery_methods, default_from, mssid) or a custom one
// (delivery_methods), neither allowing other keys; credentials is Twilio's
// {"auth_token"} or a custom provider's {}, neither allowing other keys.
func applyPhoneFields(p *tenant.PhoneProvider, b wire.Body, create bool, creds map[string]string) *wire.Error {
	if !create {
		if e := b.Only("name", "disabled", "configuration", "credentials"); e != nil {
			return e
		}
	}
	if create || b.Has("name") {
		n, e := b.Enum("name", "twilio", "custom")
		if e != nil {
			return e
		}
		if n == nil {
			return wire.PayloadErr("Missing required property: name", "")
		}
		p.Name = *n
	}
	if d, e := b.Bool("disabled"); e != nil {
		return e
	} else if d != nil {
		p.Disabled = *d
	}
	if c, _, e := b.At("").Object("configuration"); e != nil {
		return e
	} else if e := c.Only("sid", "delivery_methods", "default_from", "mssid"); e != nil {
		return e
	}
	if b.Has("configuration") {
		var cfg tenant.PhoneConfig
		if err := json.Unmarshal(b["configuration"], &cfg); err != nil {
			return wire.PayloadErr("Expected type object but found type "+wire.JSONType(b["configuration"]), "configuration")
		}
		if len(cfg.DeliveryMethods) == 0 {
			return wire.PayloadErr("Missing required property: delivery_methods", "configuration")
		}
		for _, m := range cfg.DeliveryMethods {
			if m != "text" && m != "voice" {
				return wire.PayloadErr("No enum match for: \""+m+"\"", "configuration.delivery_methods")
			}
		}
		p.Configuration = &cfg
	}
	if create {
		if creds == nil || p.Configuration == nil {
			return wire.NewErr(400, "Bad Operation on Notification Resource", "")
		}
		if p.Name == "twilio" && (p.Configuration.SID == "" || (p.Configuration.DefaultFrom == "" && p.Configuration.MSSID == "") || creds["auth_token"] == "") {
			return wire.NewErr(400, "Bad Operation on Notification Resource", "")
		}
	}
	return nil
}

func (s *Server) createPhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	if len(s.St.PhoneProviders) > 0 {
		return wire.NewErr(409, "Custom phone provider conflict", "")
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	now := wire.Millis(time.Now())
	p := &tenant.PhoneProvider{ID: "pro_" + wire.RandomString(22), Tenant: s.Name, Channel: "phone", CreatedAt: now, UpdatedAt: now}
	creds, e := applyPhone(p, b, true)
	if e != nil {
		return e
	}
	s.St.PhoneProviders[p.ID] = p
	s.St.PhoneCredentials[p.ID] = creds
	wire.WriteJSON(w, 201, p)
	return nil
}

func (s *Server) getPhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	p, e := s.phoneProvider(r)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(p))
	return nil
}

func (s *Server) updatePhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	p, e := s.phoneProvider(r)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	next := *p
	creds, e := applyPhone(&next, b, false)
	if e != nil {
		return e
	}
	next.UpdatedAt = wire.Millis(time.Now())
	*p = next
	if creds != nil {
		s.St.PhoneCredentials[p.ID] = creds
	}
	wire.WriteJSON(w, 200, p)
	return nil
}

func (s *Server) deletePhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	p, e := s.phoneProvider(r)
	if e != nil {
		return e
	}
	delete(s.St.PhoneProviders, p.ID)
	delete(s.St.PhoneCredentials, p.ID)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) tryPhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	p, e := s.phoneProvider(r)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("to", "delivery_method"); e != nil {
		return e
	}
	to, e := b.Str("to", true, 1, 16)
	if e != nil {
		return e
	}
	method, e := b.Enum("delivery_method", "text", "voice")
	if e != nil {
		return e
	}
	m := "text"
	if method != nil {
		m = *method
	}
	s.St.Outbox = append(s.St.Outbox, tenant.OutboxMessage{ProviderID: p.ID, To: to, DeliveryMethod: m, At: wire.Millis(time.Now())})
	// {code, message} is this success answer's shape only; errors use the
	// standard one (reference §0.3, §5).
	wire.WriteJSON(w, 202, wire.Ordered{{"code", 202}, {"message", "Test notification successfully sent for processing"}})
	return nil
}
