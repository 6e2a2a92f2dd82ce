package emulator

import (
	"net/http"
	"strings"
	"time"
)

var reservedPrefixes = []string{"http://auth0.com", "https://auth0.com", "http://okta.com", "https://okta.com", "urn:ietf", "urn:auth0", "urn:okta"}

// checkSubjectTokenType validates a subject_token_type and its uniqueness
// (self is the profile being updated, "" on create).
func (s *Server) checkSubjectTokenType(b body, required bool, self string, conflict int) (string, bool, *apiErr) {
	if !b.has("subject_token_type") && !required {
		return "", false, nil
	}
	stt, e := b.str("subject_token_type", required, 8, 100)
	if e != nil {
		return "", false, e
	}
	if !isURI(stt) {
		return "", false, payloadErr("Object didn't pass validation for format uri: "+stt, "subject_token_type")
	}
	lower := strings.ToLower(stt)
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(lower, p) {
			return "", false, payloadErr("The subject_token_type uses the reserved prefix "+p, "subject_token_type")
		}
	}
	for _, p := range s.st.Profiles {
		if p.SubjectTokenType == stt && p.ID != self {
			return "", false, newErr(conflict, "subject_token_type already exists for tenant", "")
		}
	}
	return stt, true, nil
}

func (s *Server) createProfile(w http.ResponseWriter, r *http.Request, c *caller) *apiErr {
	if !c.global {
		return newErr(401, "Token exchange profiles can only be created by a global client.", "")
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	if e := b.only("name", "subject_token_type", "action_id", "type"); e != nil {
		return e
	}
	name, e := b.str("name", true, 3, 50)
	if e != nil {
		return e
	}
	actionID, e := b.str("action_id", true, 1, 36)
	if e != nil {
		return e
	}
	typ, e := b.str("type", true, 1, 21)
	if e != nil {
		return e
	}
	if typ != "custom_authentication" {
		return newErr(400, "Type field must be custom", "")
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
		return newErr(400, "The action "+actionID+" does not exist.", "")
	case !a.supports("custom-token-exchange"):
		return newErr(400, "The action "+actionID+" does not support the custom-token-exchange trigger.", "")
	case a.deployed() == nil:
		return newErr(400, "The action "+actionID+" has not been deployed.", "")
	}
	if e := s.capReached(len(s.st.Profiles)); e != nil {
		return e
	}
	now := millis(time.Now())
	p := &profile{ID: "tep_" + randomString(16), Name: name, Type: typ, SubjectTokenType: stt, ActionID: actionID, CreatedAt: now, UpdatedAt: now, Seq: s.st.next()}
	s.st.Profiles[p.ID] = p
	writeJSON(w, 201, p)
	return nil
}

func (s *Server) listProfiles(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	take, offset, e := checkpoint(r)
	if e != nil {
		return e
	}
	sel, e := s.readFields(r, false)
	if e != nil {
		return e
	}
	all := sortedBySeq(s.st.Profiles, func(p *profile) int64 { return p.Seq })
	start, end := min(offset, len(all)), min(offset+take, len(all))
	reply := map[string]any{"token_exchange_profiles": each(sel, all[start:end])}
	if end < len(all) {
		reply["next"] = cursor(end)
	}
	writeJSON(w, 200, reply)
	return nil
}

func (s *Server) getProfile(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	p, ok := s.st.Profiles[pathID(r)]
	if !ok {
		return newErr(404, "Token exchange profile not found.", "")
	}
	sel, e := s.readFields(r, false)
	if e != nil {
		return e
	}
	writeJSON(w, 200, sel.one(p))
	return nil
}

func (s *Server) updateProfile(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	p, ok := s.st.Profiles[pathID(r)]
	if !ok {
		return newErr(404, "Token exchange profile not found.", "")
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	if e := b.only("name", "subject_token_type"); e != nil {
		return e
	}
	var name string
	if b.has("name") {
		if name, e = b.str("name", true, 3, 50); e != nil {
			return e
		}
	}
	stt, hasSTT, e := s.checkSubjectTokenType(b, false, p.ID, 400)
	if e != nil {
		return e
	}
	if b.has("name") {
		p.Name = name
	}
	if hasSTT {
		p.SubjectTokenType = stt
	}
	p.UpdatedAt = millis(time.Now())
	writeJSON(w, 200, p)
	return nil
}

func (s *Server) deleteProfile(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	delete(s.st.Profiles, pathID(r))
	w.WriteHeader(http.StatusNoContent)
	return nil
}
