package emulator

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"
)

func (s *Server) listPhoneProviders(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	sel, e := s.readFields(r, false)
	if e != nil {
		return e
	}
	items := []*phoneProvider{}
	for _, p := range s.st.PhoneProviders {
		items = append(items, p)
	}
	writeJSON(w, 200, map[string]any{"providers": each(sel, items)})
	return nil
}

func (s *Server) phoneProvider(r *http.Request) (*phoneProvider, *apiErr) {
	id := pathID(r)
	// Assumption (reference §0.3 observed path errors elsewhere): an id over
	// 255 characters is a path validation error with errorCode invalid_uri.
	if utf8.RuneCountInString(id) > 255 {
		return nil, newErr(400, "Path validation error: 'String is too long ("+strconv.Itoa(utf8.RuneCountInString(id))+" chars), maximum 255' on property id.", "invalid_uri")
	}
	p, ok := s.st.PhoneProviders[id]
	if !ok {
		// The API's one error shape, without errorCode here (reference §0.3, §0.4).
		return nil, newErr(404, "Notification Resource not found", "")
	}
	return p, nil
}

// applyPhone validates name, disabled, configuration and credentials.
//
// Which keys each object takes (published specification): the create body
// allows other keys (additionalProperties true, reference §7), which are
// ignored; the PATCH body does not. configuration is a Twilio one (sid,
// delivery_methods, default_from, mssid) or a custom one
// (delivery_methods), neither allowing other keys; credentials is Twilio's
// {"auth_token"} or a custom provider's {}, neither allowing other keys.
func applyPhone(p *phoneProvider, b body, create bool) *apiErr {
	if !create {
		if e := b.only("name", "disabled", "configuration", "credentials"); e != nil {
			return e
		}
	}
	if create || b.has("name") {
		n, e := b.enum("name", "twilio", "custom")
		if e != nil {
			return e
		}
		if n == nil {
			return payloadErr("Missing required property: name", "")
		}
		p.Name = *n
	}
	if d, e := b.boolean("disabled"); e != nil {
		return e
	} else if d != nil {
		p.Disabled = *d
	}
	if b.has("configuration") {
		if c, _, e := b.at("").object("configuration"); e != nil {
			return e
		} else if e := c.only("sid", "delivery_methods", "default_from", "mssid"); e != nil {
			return e
		}
		var cfg phoneConfig
		if err := json.Unmarshal(b["configuration"], &cfg); err != nil {
			return payloadErr("Expected type object but found type "+jsonType(b["configuration"]), "configuration")
		}
		if len(cfg.DeliveryMethods) == 0 {
			return payloadErr("Missing required property: delivery_methods", "configuration")
		}
		for _, m := range cfg.DeliveryMethods {
			if m != "text" && m != "voice" {
				return payloadErr("No enum match for: \""+m+"\"", "configuration.delivery_methods")
			}
		}
		p.Configuration = &cfg
	}
	if creds, ok, e := b.at("").object("credentials"); e != nil {
		return e
	} else if ok {
		if e := creds.only("auth_token"); e != nil {
			return e
		}
		if _, e := creds.str("auth_token", false, 1, 255); e != nil {
			return e
		}
	}
	if create {
		if !b.has("credentials") || p.Configuration == nil {
			return newErr(400, "Bad Operation on Notification Resource", "")
		}
		if p.Name == "twilio" && (p.Configuration.SID == "" || (p.Configuration.DefaultFrom == "" && p.Configuration.MSSID == "")) {
			return newErr(400, "Bad Operation on Notification Resource", "")
		}
	}
	return nil
}

func (s *Server) createPhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	if len(s.st.PhoneProviders) > 0 {
		return newErr(409, "Custom phone provider conflict", "")
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	now := millis(time.Now())
	p := &phoneProvider{ID: "pro_" + randomString(22), Tenant: s.opts.TenantName, Channel: "phone", CreatedAt: now, UpdatedAt: now}
	if e := applyPhone(p, b, true); e != nil {
		return e
	}
	s.st.PhoneProviders[p.ID] = p
	writeJSON(w, 201, p)
	return nil
}

func (s *Server) getPhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	p, e := s.phoneProvider(r)
	if e != nil {
		return e
	}
	sel, e := s.readFields(r, false)
	if e != nil {
		return e
	}
	writeJSON(w, 200, sel.one(p))
	return nil
}

func (s *Server) updatePhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	p, e := s.phoneProvider(r)
	if e != nil {
		return e
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	next := *p
	if e := applyPhone(&next, b, false); e != nil {
		return e
	}
	next.UpdatedAt = millis(time.Now())
	*p = next
	writeJSON(w, 200, p)
	return nil
}

func (s *Server) deletePhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	p, e := s.phoneProvider(r)
	if e != nil {
		return e
	}
	delete(s.st.PhoneProviders, p.ID)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) tryPhoneProvider(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	p, e := s.phoneProvider(r)
	if e != nil {
		return e
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	if e := b.only("to", "delivery_method"); e != nil {
		return e
	}
	to, e := b.str("to", true, 1, 16)
	if e != nil {
		return e
	}
	method, e := b.enum("delivery_method", "text", "voice")
	if e != nil {
		return e
	}
	m := "text"
	if method != nil {
		m = *method
	}
	s.st.Outbox = append(s.st.Outbox, OutboxMessage{ProviderID: p.ID, To: to, DeliveryMethod: m, At: millis(time.Now())})
	// {code, message} is this success answer's shape only; errors use the
	// standard one (reference §0.3, §5).
	writeJSON(w, 202, ordered{{"code", 202}, {"message", "Test notification successfully sent for processing"}})
	return nil
}
