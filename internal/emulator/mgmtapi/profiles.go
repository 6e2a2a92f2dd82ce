package mgmtapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

var reservedPrefixes = []string{"http://auth0.com", "https://auth0.com", "http://okta.com", "https://okta.com", "urn:ietf", "urn:auth0", "urn:okta"}

// checkSubjectTokenType validates a subject_token_type and its uniqueness
// (self is the profile being updated, "" on create).
func (s *Server) checkSubjectTokenType(b wire.Body, required bool, self string, conflict int) (string, bool, *wire.Error) {
	if !b.Has("subject_token_type") && !required {
		return "", false, nil
	}
	stt, e := b.Str("subject_token_type", required, 8, 100)
	if e != nil {
		return "", false, e
	}
	if !wire.IsURI(stt) {
		return "", false, wire.PayloadErr("Object didn't pass validation for format uri: "+stt, "subject_token_type")
	}
	lower := strings.ToLower(stt)
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(lower, p) {
			return "", false, wire.PayloadErr("The subject_token_type uses the reserved prefix "+p, "subject_token_type")
		}
	}
	for _, p := range s.St.Profiles {
		if p.SubjectTokenType == stt && p.ID != self {
			return "", false, wire.NewErr(conflict, "subject_token_type already exists for tenant", "")
		}
	}
	return stt, true, nil
}

func (s *Server) createProfile(w http.ResponseWriter, r *http.Request, c *caller) *wire.Error {
	if !c.global {
		return wire.NewErr(401, "Token exchange profiles can only be created by a global client.", "")
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("name", "subject_token_type", "action_id", "type"); e != nil {
		return e
	}
	name, e := b.Str("name", true, 3, 50)
	if e != nil {
		return e
	}
	actionID, e := b.Str("action_id", true, 1, 36)
	if e != nil {
		return e
	}
	typ, e := b.Str("type", true, 1, 21)
	if e != nil {
		return e
	}
	if typ != "custom_authentication" {
		return wire.NewErr(400, "Type field must be custom", "")
	}
	stt, _, e := s.checkSubjectTokenType(b, true, "", 409)
	if e != nil {
		return e
	}
	// A created action with deploy:true is not deployed until its build
	// succeeds (reference §2). A profile on an action that does not exist,
	// lacks the custom-token-exchange trigger or is not deployed is a 400
	// (reference §1 [P]); the texts are assumed ([?]).
	a, ae := s.findAction(actionID, time.Now())
	switch {
	case ae != nil:
		return wire.NewErr(400, "The action "+actionID+" does not exist.", "")
	case !a.Supports("custom-token-exchange"):
		return wire.NewErr(400, "The action "+actionID+" does not support the custom-token-exchange trigger.", "")
	case a.Deployed() == nil:
		return wire.NewErr(400, "The action "+actionID+" has not been deployed.", "")
	}
	if e := s.capReached(len(s.St.Profiles)); e != nil {
		return e
	}
	now := wire.Millis(time.Now())
	p := &tenant.Profile{ID: "tep_" + wire.RandomString(16), Name: name, Type: typ, SubjectTokenType: stt, ActionID: actionID, CreatedAt: now, UpdatedAt: now, Seq: s.St.Next()}
	s.St.Profiles[p.ID] = p
	wire.WriteJSON(w, 201, p)
	return nil
}

func (s *Server) listProfiles(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	take, offset, e := wire.Checkpoint(r)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	all := tenant.SortedBySeq(s.St.Profiles, func(p *tenant.Profile) int64 { return p.Seq })
	start, end := min(offset, len(all)), min(offset+take, len(all))
	reply := map[string]any{"token_exchange_profiles": wire.Each(sel, all[start:end])}
	if end < len(all) {
		reply["next"] = wire.Cursor(end)
	}
	wire.WriteJSON(w, 200, reply)
	return nil
}

func (s *Server) getProfile(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	p, ok := s.St.Profiles[wire.PathID(r)]
	if !ok {
		return wire.NewErr(404, "Token exchange profile not found.", "")
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(p))
	return nil
}

func (s *Server) updateProfile(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	p, ok := s.St.Profiles[wire.PathID(r)]
	if !ok {
		return wire.NewErr(404, "Token exchange profile not found.", "")
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("name", "subject_token_type"); e != nil {
		return e
	}
	var name string
	if b.Has("name") {
		if name, e = b.Str("name", true, 3, 50); e != nil {
			return e
		}
	}
	stt, hasSTT, e := s.checkSubjectTokenType(b, false, p.ID, 400)
	if e != nil {
		return e
	}
	if b.Has("name") {
		p.Name = name
	}
	if hasSTT {
		p.SubjectTokenType = stt
	}
	p.UpdatedAt = wire.Millis(time.Now())
	wire.WriteJSON(w, 200, p)
	return nil
}

func (s *Server) deleteProfile(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	delete(s.St.Profiles, wire.PathID(r))
	w.WriteHeader(http.StatusNoContent)
	return nil
}
