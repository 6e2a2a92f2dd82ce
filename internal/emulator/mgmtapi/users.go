package mgmtapi

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Users, as far as assigning roles needs them and the recordings show them
// (go-auth0 v1.47.0: TestUserManager_{Create,Read,List,Delete}.yaml,
// TestRoleManager_Users.yaml, TestRoleManager_UsersCheckpointPagination.yaml):
// create, read, search, delete, and the role members of
// POST/GET /roles/{id}/users; PATCH (users_update.go); users of other
// connections than the database one (connections.go).

// createUser makes a user of the database connection and answers 201 with
// it (recorded).
//
// The body takes the published specification's keys (additionalProperties
// false); connection is required. Defaults as recorded: email_verified
// false, name the e-mail, nickname the e-mail's local part, picture from
// Gravatar. Assumptions: email and password are required (the database
// connection's rules), email must parse as an address; username,
// given_name, family_name, name, nickname and phone_number are strings of
// 1–300 characters, picture a non-empty string; user_metadata and
// app_metadata objects; a user_id sent
// becomes auth0|<user_id>; a second user with the same e-mail, username or
// user_id is 409 "The user already exists." (errorCode auth0_idp_error);
// verify_email is accepted and does nothing.
func (s *Server) createUser(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	o := b.At("")
	if e := o.Only("email", "phone_number", "user_metadata", "blocked", "email_verified", "phone_verified", "app_metadata", "given_name",
		"family_name", "name", "nickname", "picture", "user_id", "connection", "password", "verify_email", "username"); e != nil {
		return e
	}
	conn, e := o.Str("connection", true, 1, 0)
	if e != nil {
		return e
	}
	// Assumption: users are made here only in database connections (the
	// emulator does not model passwordless ones).
	connection := s.ConnectionByName(conn)
	if connection == nil || connection.Strategy != "auth0" {
		return wire.NewErr(400, "The connection does not exist.", "inexistent_connection")
	}
	if e := o.Require("email", "password"); e != nil {
		return e
	}
	email, e := o.Str("email", true, 1, 300)
	if e != nil {
		return e
	}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		return wire.PayloadErr("Object didn't pass validation for format email: "+email, "email")
	}
	if _, e := o.Str("password", true, 1, 0); e != nil {
		return e
	}
	now := wire.Millis(time.Now())
	u := &tenant.User{Email: email, CreatedAt: now, UpdatedAt: now}
	for _, f := range []struct {
		key string
		dst *string
		max int
	}{
		{"username", &u.Username, 300}, {"given_name", &u.GivenName, 300}, {"family_name", &u.FamilyName, 300}, {"name", &u.Name, 300},
		{"nickname", &u.Nickname, 300}, {"phone_number", &u.PhoneNumber, 300}, {"picture", &u.Picture, 0},
	} {
		if *f.dst, e = o.Str(f.key, false, 1, f.max); e != nil {
			return e
		}
	}
	if u.Blocked, e = o.Bool("blocked"); e != nil {
		return e
	}
	if u.PhoneVerified, e = o.Bool("phone_verified"); e != nil {
		return e
	}
	verified, e := o.Bool("email_verified")
	if e != nil {
		return e
	}
	u.EmailVerified = verified != nil && *verified
	if _, e := o.Bool("verify_email"); e != nil {
		return e
	}
	for _, f := range []struct {
		key string
		dst *json.RawMessage
	}{{"user_metadata", &u.UserMetadata}, {"app_metadata", &u.AppMetadata}} {
		if _, ok, e := o.Object(f.key); e != nil {
			return e
		} else if ok {
			*f.dst, _ = wire.CompactJSON(b[f.key])
		}
	}
	local, e := o.Str("user_id", false, 1, 255)
	if e != nil {
		return e
	}
	if local == "" {
		local = wire.RandomHex(24)
	}
	u.SetConnection(connection, local)
	if u.Name == "" {
		u.Name = email
	}
	if u.Nickname == "" {
		u.Nickname, _, _ = strings.Cut(email, "@")
	}
	if u.Picture == "" {
		u.Picture = tenant.Gravatar(email, u.Name)
	}
	for _, other := range s.St.Users {
		if other.UserID == u.UserID || (other.ConnectionName() == conn && (strings.EqualFold(other.Email, email) || (u.Username != "" && other.Username == u.Username))) {
			return wire.NewErr(409, "The user already exists.", "auth0_idp_error")
		}
	}
	if e := s.capReached(len(s.St.Users)); e != nil {
		return e
	}
	u.Seq = s.St.Next()
	s.St.Users[u.UserID] = u
	wire.WriteJSON(w, 201, u.View())
	return nil
}

func (s *Server) findUser(id string) (*tenant.User, *wire.Error) {
	u, ok := s.St.Users[id]
	if !ok {
		return nil, wire.NewErr(404, "The user does not exist.", "inexistent_user")
	}
	return u, nil
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	u, e := s.findUser(wire.PathID(r))
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, true, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(u.View()))
	return nil
}

// deleteUser answers 204, also for a user that does not exist (recorded);
// the user leaves every role.
func (s *Server) deleteUser(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	s.removeUser(wire.PathID(r))
	wire.NoContent(w)
	return nil
}

// removeUser deletes a user; it leaves every role and organization.
func (s *Server) removeUser(id string) {
	delete(s.St.Users, id)
	for _, members := range s.St.RoleUsers {
		delete(members, id)
	}
	s.ForgetUser(id)
}

// userQuery is the one search the emulator understands: field:"value" or
// field:value, an exact match (the recorded search is
// q=username:"test-user998" with search_engine=v3).
var userQuery = regexp.MustCompile(`^(user_id|email|username|name|nickname|given_name|family_name):(?:"([^"]*)"|([^\s"*?:()]+))$`)

// listUsers pages the users in creation order, filtered by q and
// connection; with include_totals the envelope is
// {"start","limit","length","users","total"} (recorded; reference §0.6).
//
// Assumptions: q is only field:"value" (or field:value), an exact match on
// user_id, email, username, name, nickname, given_name or family_name; any
// other query is refused with 400 (errorCode invalid_query_string) whose
// message says the emulator does not support it; sort, search_engine and
// primary_order are accepted and not applied.
func (s *Server) listUsers(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	page, perPage, totals, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, true, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	q := r.URL.Query()
	var field, value string
	if raw := strings.TrimSpace(q.Get("q")); raw != "" {
		m := userQuery.FindStringSubmatch(raw)
		if m == nil {
			s.logf(r, "the emulator does not support the user search q=%s", raw)
			return wire.NewErr(400, `Query validation error: the emulator supports q only as field:"value" on user_id, email, username, name, nickname, given_name or family_name.`, "invalid_query_string")
		}
		field, value = m[1], m[2]+m[3]
	}
	var match []wire.Ordered
	for _, u := range tenant.SortedBySeq(s.St.Users, func(u *tenant.User) int64 { return u.Seq }) {
		if c := q.Get("connection"); c != "" && u.ConnectionName() != c {
			continue
		}
		if field != "" && map[string]string{
			"user_id": u.UserID, "email": u.Email, "username": u.Username, "name": u.Name,
			"nickname": u.Nickname, "given_name": u.GivenName, "family_name": u.FamilyName,
		}[field] != value {
			continue
		}
		match = append(match, u.View())
	}
	start, end := wire.Window(len(match), page, perPage)
	items := wire.Each(sel, match[start:end])
	if !totals {
		wire.WriteJSON(w, 200, items)
		return nil
	}
	wire.WriteJSON(w, 200, wire.Ordered{{"start", page * perPage}, {"limit", perPage}, {"length", len(items)}, {"users", items}, {"total", len(match)}})
	return nil
}

// assignRoleUsers adds users to a role and answers 200 {} (recorded). The
// body is {"users": [user ids]} (published specification:
// additionalProperties false, users required; idList).
//
// Assumptions: users holds 1 or more ids, a repeated one added once (the
// reference does not say whether the API refuses it); an id of no user is
// 404 "The user does not exist." (errorCode inexistent_user) and
// nobody is added; a user already in the role keeps the time it was added.
func (s *Server) assignRoleUsers(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	ro, e := s.role(r)
	if e != nil {
		return e
	}
	ids, e := idList(r, "users", acceptRepeats, s.findUser)
	if e != nil {
		return e
	}
	members := s.St.RoleUsers[ro.ID]
	if members == nil {
		members = map[string]int64{}
		s.St.RoleUsers[ro.ID] = members
	}
	at := s.St.Next()
	for _, id := range ids {
		if _, in := members[id]; !in {
			members[id] = at
		}
	}
	wire.WriteJSON(w, 200, map[string]any{})
	return nil
}

// roleUsers lists a role's users (writeAddedUsers: next is left out on
// the last checkpoint page, recorded: take wins over include_totals). It
// needs read:users as well as read:roles ("expected all of", published
// specification).
func (s *Server) roleUsers(w http.ResponseWriter, r *http.Request, c *caller) *wire.Error {
	if !c.scopes["read:users"] {
		return wire.NewErr(403, "Insufficient scope; expected all of: read:users, read:roles.", "insufficient_scope")
	}
	ro, e := s.role(r)
	if e != nil {
		return e
	}
	const fields, nextUntilEmpty = false, false
	return s.writeAddedUsers(w, r, "users", s.St.RoleUsers[ro.ID], (*tenant.User).Member, fields, nextUntilEmpty)
}

// writeAddedUsers writes the users of added (user id: the store's sequence
// when the user was added) that still exist, each as view shows it, in the
// order they were added and by user_id among those added together (as
// recorded for a role's users and an organization's members). With take or
// from the pages are checkpoints, {key,"next"}, whose next is left out on
// the last page, or with nextUntilEmpty only once a page comes back empty;
// otherwise offset pages, a bare array or, with include_totals,
// {key,"start","limit","total"} (recorded). fields says whether the route
// takes fields and include_fields (the emulator may take them everywhere).
func (s *Server) writeAddedUsers(w http.ResponseWriter, r *http.Request, key string, added map[string]int64, view func(*tenant.User) wire.Ordered, fields, nextUntilEmpty bool) *wire.Error {
	sel, e := wire.ReadFields(r, fields, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	ids := slices.SortedFunc(maps.Keys(added), func(a, b string) int {
		if added[a] != added[b] {
			return int(added[a] - added[b])
		}
		return strings.Compare(a, b)
	})
	all := []wire.Ordered{}
	for _, id := range ids {
		if u := s.St.Users[id]; u != nil {
			all = append(all, view(u))
		}
	}
	if q := r.URL.Query(); q.Has("take") || q.Has("from") {
		take, offset, e := wire.Checkpoint(r)
		if e != nil {
			return e
		}
		start, end := min(offset, len(all)), min(offset+take, len(all))
		reply := wire.Ordered{{key, wire.Each(sel, all[start:end])}}
		if end < len(all) || nextUntilEmpty && end > start {
			reply = append(reply, wire.Ordered{{"next", wire.Cursor(end)}}...)
		}
		wire.WriteJSON(w, 200, reply)
		return nil
	}
	page, perPage, totals, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	start, end := wire.Window(len(all), page, perPage)
	items := wire.Each(sel, all[start:end])
	if !totals {
		wire.WriteJSON(w, 200, items)
		return nil
	}
	wire.WriteJSON(w, 200, wire.Ordered{{key, items}, {"start", page * perPage}, {"limit", perPage}, {"total", len(all)}})
	return nil
}
