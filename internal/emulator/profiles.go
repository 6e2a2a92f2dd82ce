package emulator

import (
	"encoding/json"
	"net/http"
	"strconv"
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
	a, ok := s.st.Actions[actionID]
	switch {
	case !ok:
		return newErr(400, "The action "+actionID+" does not exist.", "")
	case !a.supports("custom-token-exchange"):
		return newErr(400, "The action "+actionID+" does not support the custom-token-exchange trigger.", "")
	case a.DeployedVersion == nil:
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
	q := r.URL.Query()
	take := 50
	if v := q.Get("take"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return newErr(400, "Query validation error: 'Value "+v+" is out of range [1, 100]' on property take.", "invalid_query_string")
		}
		take = n
	}
	offset := 0
	if v := q.Get("from"); v != "" {
		n, ok := fromCursor(v)
		if !ok {
			return newErr(400, "Query validation error: 'Invalid checkpoint' on property from.", "invalid_query_string")
		}
		offset = n
	}
	all := sortedBySeq(s.st.Profiles, func(p *profile) int64 { return p.Seq })
	start, end := min(offset, len(all)), min(offset+take, len(all))
	reply := map[string]any{"token_exchange_profiles": all[start:end]}
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
	writeJSON(w, 200, p)
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

// Actions: enough to be the prerequisite of a profile.

func (a *action) supports(triggerID string) bool {
	for _, t := range a.SupportedTriggers {
		if t.ID == triggerID {
			return true
		}
	}
	return false
}

// view is the action as GET shows it at now: pending until built.
func (a *action) view(now time.Time) *action {
	v := *a
	if v.Status == "pending" && !now.Before(a.BuiltAfter) {
		v.Status = "built"
	}
	return &v
}

// settle persists the built status once its time has come.
func (a *action) settle(now time.Time) { *a = *a.view(now) }

func (s *Server) createAction(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	b, e := readBody(r)
	if e != nil {
		return e
	}
	if e := b.only("name", "supported_triggers", "code", "runtime", "dependencies", "secrets", "deploy"); e != nil {
		return e
	}
	name, e := b.str("name", true, 1, 255)
	if e != nil {
		return e
	}
	var triggers []trigger
	if !b.has("supported_triggers") {
		return payloadErr("Missing required property: supported_triggers", "")
	}
	if err := json.Unmarshal(b["supported_triggers"], &triggers); err != nil || len(triggers) == 0 {
		return payloadErr("Array is too short (0), minimum 1", "supported_triggers")
	}
	code, e := b.str("code", false, 0, 0)
	if e != nil {
		return e
	}
	runtime, e := b.str("runtime", false, 0, 20)
	if e != nil {
		return e
	}
	if runtime == "" {
		runtime = "node22"
	}
	deploy, e := b.boolean("deploy")
	if e != nil {
		return e
	}
	if e := s.capReached(len(s.st.Actions)); e != nil {
		return e
	}
	now := time.Now()
	a := &action{
		ID: uuid4(), Name: name, SupportedTriggers: triggers, CreatedAt: nanos(now), UpdatedAt: nanos(now), Code: code,
		Dependencies: []any{}, Runtime: runtime, Status: "pending", Secrets: []actionSecret{}, Seq: s.st.next(),
		BuiltAfter: now.Add(s.opts.BuildDelay),
	}
	if deploy != nil && *deploy {
		a.deploy(now)
	}
	s.st.Actions[a.ID] = a
	writeJSON(w, 201, a)
	return nil
}

// deploy makes a new deployed version of the action.
func (a *action) deploy(now time.Time) *actionVersion {
	a.Versions++
	v := &actionVersion{
		Code: a.Code, Dependencies: []any{}, ID: uuid4(), Deployed: true, Number: a.Versions, BuiltAt: nanos(now),
		Secrets: []actionSecret{}, Status: "built", CreatedAt: nanos(now), UpdatedAt: nanos(now), Runtime: a.Runtime, Triggers: a.SupportedTriggers,
	}
	a.DeployedVersion = v
	a.AllChangesDeployed = true
	return v
}

func (s *Server) getAction(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	a, ok := s.st.Actions[pathID(r)]
	if !ok {
		return newErr(404, "That action does not exist.", "")
	}
	a.settle(time.Now())
	writeJSON(w, 200, a)
	return nil
}

func (s *Server) listActions(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	q := r.URL.Query()
	page, perPage, _, e := offsetPage(r)
	if e != nil {
		return e
	}
	if q.Get("per_page") == "" {
		perPage = 20
	}
	var match []*action
	now := time.Now()
	for _, a := range sortedBySeq(s.st.Actions, func(a *action) int64 { return a.Seq }) {
		a.settle(now)
		if t := q.Get("triggerId"); t != "" && !a.supports(t) {
			continue
		}
		if n := q.Get("actionName"); n != "" && a.Name != n {
			continue
		}
		if d := q.Get("deployed"); d != "" && (d == "true") != (a.DeployedVersion != nil) {
			continue
		}
		match = append(match, a)
	}
	start, end := window(len(match), page, perPage)
	writeJSON(w, 200, map[string]any{"actions": append([]*action{}, match[start:end]...), "total": len(match), "per_page": perPage})
	return nil
}

func (s *Server) updateAction(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	a, ok := s.st.Actions[pathID(r)]
	if !ok {
		return newErr(404, "That action does not exist.", "")
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	if e := b.only("name", "supported_triggers", "code", "runtime", "dependencies", "secrets"); e != nil {
		return e
	}
	if b.has("name") {
		if a.Name, e = b.str("name", true, 1, 255); e != nil {
			return e
		}
	}
	if b.has("code") {
		if a.Code, e = b.str("code", true, 0, 0); e != nil {
			return e
		}
	}
	if b.has("supported_triggers") {
		var t []trigger
		if err := json.Unmarshal(b["supported_triggers"], &t); err != nil || len(t) == 0 {
			return payloadErr("Array is too short (0), minimum 1", "supported_triggers")
		}
		a.SupportedTriggers = t
	}
	now := time.Now()
	a.UpdatedAt, a.Status, a.BuiltAfter, a.AllChangesDeployed = nanos(now), "pending", now.Add(s.opts.BuildDelay), false
	writeJSON(w, 200, a)
	return nil
}

func (s *Server) deployAction(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	a, ok := s.st.Actions[pathID(r)]
	if !ok {
		return newErr(404, "That action does not exist.", "")
	}
	now := time.Now()
	a.settle(now)
	v := *a.deploy(now)
	// The deploy answer still says deployed:false; the action shows true.
	v.Deployed = false
	reply := map[string]any{"code": v.Code, "dependencies": v.Dependencies, "id": v.ID, "deployed": false, "number": v.Number,
		"secrets": v.Secrets, "status": v.Status, "created_at": v.CreatedAt, "updated_at": v.UpdatedAt, "runtime": v.Runtime,
		"supported_triggers": v.Triggers, "action": map[string]any{"id": a.ID, "name": a.Name, "supported_triggers": a.SupportedTriggers,
			"created_at": a.CreatedAt, "updated_at": a.UpdatedAt, "all_changes_deployed": false}}
	writeJSON(w, 200, reply)
	return nil
}

func (s *Server) deleteAction(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	id := pathID(r)
	if _, ok := s.st.Actions[id]; !ok {
		return newErr(404, "That action does not exist.", "")
	}
	delete(s.st.Actions, id)
	w.WriteHeader(http.StatusNoContent)
	return nil
}
