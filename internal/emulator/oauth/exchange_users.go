package oauth

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// The users a custom token exchange sets: those its actions find, create or
// replace with setUserByConnection or name with setUserById, and their
// metadata. They are users of the tenant's connections, which the
// Management API's /users shows too.

// userAttributes are the profile attributes setUserByConnection takes
// (custom token exchange api object [R]: the Update a User attributes, and
// verify_email, which is not stored).
var userAttributes = []string{
	"user_id", "email", "email_verified", "username", "phone_number", "phone_verified",
	"name", "given_name", "family_name", "nickname", "picture", "verify_email",
}

// The limits of setUserByConnection (token-exchange-flow.md §3).
const (
	maxConnectionName   = 512
	maxProfileAttribute = 24
)

// invalidUser is a failure caused by the user the action set (400
// invalid_request): its description is short and holds no stored user
// data (no email, no connection), since the platform's token endpoint
// errors "reveal less details" than its logs (token-exchange-flow.md §5);
// the detail, for the log, may. badCall is one caused by how the action
// called the api (500 server_error), described from the call alone.
//
// Assumption (token-exchange-flow.md §4 lists these cases as [?]): a user
// that does not exist, or a profile the connection refuses, is 400
// invalid_request; an api call the platform would refuse whatever the
// user (an unknown connection, a limit, an option out of its enum) is 500
// server_error, as an error of the action.
func invalidUser(description, detailFormat string, args ...any) *exchangeFailure {
	return &exchangeFailure{400, "invalid_request", description, fmt.Sprintf(detailFormat, args...)}
}

func badCall(format string, args ...any) *exchangeFailure {
	return refuse(500, "server_error", format, args...)
}

// blockedUser is the answer for a blocked user.
//
// Assumption (token-exchange-flow.md §4: [?]): 401 unauthorized "user is
// blocked", the token endpoint's answer to a blocked user in the password
// grant.
var blockedUser = &exchangeFailure{401, "unauthorized", "user is blocked", ""}

// userByID resolves setUserById: the user must exist and not be blocked
// (token-exchange-flow.md §3).
func (s *Server) userByID(id string) (*tenant.User, *exchangeFailure) {
	u, ok := s.St.Users[id]
	if !ok {
		return nil, invalidUser("The user does not exist.", "setUserById: the user %q does not exist.", id)
	}
	if u.IsBlocked() {
		return nil, blockedUser
	}
	return u, nil
}

// userChange is what setUserByConnection will do to the store once the
// exchange succeeds: create the user, replace its profile, or nothing.
type userChange struct {
	user   *tenant.User // the user as it will be
	create bool
}

// userByConnection resolves setUserByConnection(connection, attributes,
// options) without changing the store (token-exchange-flow.md §3; the
// api object's documentation [R]):
//   - the connection exists (≤ 512 characters), is enabled for the client,
//     and is of a supported strategy (§5); the profile has at most 24
//     attributes, user_id among them, and only the documented ones;
//     creationBehavior is create_if_not_exists or none, updateBehavior
//     replace or none;
//   - the user is the connection's user <user_id> (tenant.Connection's
//     UserIDFor: auth0|<user_id> in a database); a blocked user always
//     fails;
//   - a user that does not exist is created only with
//     create_if_not_exists, and needs an email (§5: "by default"); a
//     database connection takes no phone_number, and no username (it does
//     not require one);
//   - an existing user is changed only with replace: email, username,
//     phone_number and the verified flags cannot change (sent with another
//     value, or left out where the user has one); the other attributes are
//     replaced, and those left out are removed.
//
// Assumptions (the documentation is silent): an attribute outside the
// documented ones is a bad call; an email is unique in the connection, so
// creating a user with another user's email fails as invalid_request; the
// verified flags left out of a replace keep their values.
func (s *Server) userByConnection(clientID, connection string, attrs map[string]json.RawMessage, options map[string]json.RawMessage, now time.Time) (*userChange, *exchangeFailure) {
	if n := len([]rune(connection)); n > maxConnectionName {
		return nil, badCall("setUserByConnection: connection_name is %d characters long, at most %d are allowed.", n, maxConnectionName)
	}
	conn := s.ConnectionByName(connection)
	if conn == nil {
		return nil, badCall("setUserByConnection: the connection %q does not exist.", connection)
	}
	// §5: the connection must be enabled for the client, and of a
	// supported strategy. The answer names neither; the log does.
	if !conn.EnabledFor(clientID) {
		s.Logf("setUserByConnection: the connection %s is not enabled for the client %s", conn.Name, clientID)
		return nil, badCall("setUserByConnection: the connection is not enabled for the client.")
	}
	if why := conn.ExchangeRefusal(); why != "" {
		s.Logf("setUserByConnection: the connection %s cannot be used: %s", conn.Name, why)
		return nil, badCall("setUserByConnection: the connection is not supported by custom token exchange.")
	}
	if len(attrs) > maxProfileAttribute {
		return nil, badCall("setUserByConnection: the user profile has %d attributes, at most %d are allowed.", len(attrs), maxProfileAttribute)
	}
	for k := range attrs {
		if !slices.Contains(userAttributes, k) {
			return nil, badCall("setUserByConnection: %q is not a user profile attribute; use user metadata for it.", k)
		}
	}
	creation, f := optionEnum(options, "creationBehavior", "create_if_not_exists", "none")
	if f != nil {
		return nil, f
	}
	update, f := optionEnum(options, "updateBehavior", "replace", "none")
	if f != nil {
		return nil, f
	}
	p, f := readProfile(attrs)
	if f != nil {
		return nil, f
	}
	if p.UserID == "" {
		return nil, badCall("setUserByConnection: user_id is required.")
	}
	id := conn.UserIDFor(p.UserID)
	existing, found := s.St.Users[id]
	switch {
	case found && existing.IsBlocked():
		return nil, blockedUser
	case found && update == "none":
		return &userChange{user: existing}, nil
	case found:
		return replaceProfile(existing, p, now)
	case creation == "none":
		return nil, invalidUser("The user does not exist, and creationBehavior is none.",
			"setUserByConnection: the user %q does not exist in the connection %s, and creationBehavior is none.", p.UserID, connection)
	}
	if p.Email == nil || *p.Email == "" {
		return nil, invalidUser("An email is required to create the user.", "setUserByConnection: the connection %s needs an email to create a user.", connection)
	}
	if a, err := mail.ParseAddress(*p.Email); err != nil || a.Address != *p.Email {
		return nil, invalidUser("The user's email is not a valid email address.", "setUserByConnection: %q is not an email address.", *p.Email)
	}
	if p.PhoneNumber != nil && conn.Strategy == "auth0" {
		return nil, invalidUser("The connection does not take a phone_number.", "setUserByConnection: the connection %s does not take a phone_number.", connection)
	}
	if p.Username != nil && conn.Strategy == "auth0" {
		return nil, invalidUser("The connection does not take a username.", "setUserByConnection: the connection %s does not require a username, and takes none.", connection)
	}
	for _, other := range s.St.Users {
		if other.ConnectionName() == conn.Name && strings.EqualFold(other.Email, *p.Email) {
			return nil, invalidUser("The user already exists.", "setUserByConnection: another user of the connection %s has the email %s.", connection, *p.Email)
		}
	}
	at := wire.Millis(now)
	u := &tenant.User{Email: *p.Email, CreatedAt: at, UpdatedAt: at}
	u.SetConnection(conn, p.UserID)
	if conn.Strategy != "auth0" {
		u.Username, u.PhoneNumber = wire.Deref(p.Username), wire.Deref(p.PhoneNumber)
	}
	if p.EmailVerified != nil {
		u.EmailVerified = *p.EmailVerified
	}
	u.PhoneVerified = p.PhoneVerified
	p.applyNames(u)
	return &userChange{user: u, create: true}, nil
}

// userProfile is setUserByConnection's user attributes, read; nil is absent.
type userProfile struct {
	UserID                            string
	Email, Username, PhoneNumber      *string
	EmailVerified, PhoneVerified      *bool
	Name, GivenName, FamilyName, Nick *string
	Picture                           *string
}

func readProfile(attrs map[string]json.RawMessage) (*userProfile, *exchangeFailure) {
	p := &userProfile{}
	str := func(k string) (*string, *exchangeFailure) {
		raw, ok := attrs[k]
		if !ok || string(raw) == "null" {
			return nil, nil
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return nil, badCall("setUserByConnection: %s must be a string.", k)
		}
		return &v, nil
	}
	flag := func(k string) (*bool, *exchangeFailure) {
		raw, ok := attrs[k]
		if !ok || string(raw) == "null" {
			return nil, nil
		}
		var v bool
		if json.Unmarshal(raw, &v) != nil {
			return nil, badCall("setUserByConnection: %s must be a boolean.", k)
		}
		return &v, nil
	}
	var f *exchangeFailure
	id, f := str("user_id")
	if f != nil {
		return nil, f
	}
	if id != nil {
		p.UserID = *id
	}
	for k, dst := range map[string]**string{
		"email": &p.Email, "username": &p.Username, "phone_number": &p.PhoneNumber, "name": &p.Name,
		"given_name": &p.GivenName, "family_name": &p.FamilyName, "nickname": &p.Nick, "picture": &p.Picture,
	} {
		if *dst, f = str(k); f != nil {
			return nil, f
		}
	}
	for k, dst := range map[string]**bool{"email_verified": &p.EmailVerified, "phone_verified": &p.PhoneVerified, "verify_email": new(*bool)} {
		if *dst, f = flag(k); f != nil {
			return nil, f
		}
	}
	return p, nil
}

// applyNames sets the replaceable attributes; those left out are removed,
// and name and nickname fall back to the email, as the tenant's normalized
// profile does.
func (p *userProfile) applyNames(u *tenant.User) {
	u.Name, u.GivenName, u.FamilyName, u.Nickname, u.Picture = wire.Deref(p.Name), wire.Deref(p.GivenName), wire.Deref(p.FamilyName), wire.Deref(p.Nick), wire.Deref(p.Picture)
	if u.Name == "" {
		u.Name = u.Email
	}
	if u.Nickname == "" {
		u.Nickname, _, _ = strings.Cut(u.Email, "@")
	}
	if u.Picture == "" {
		u.Picture = tenant.Gravatar(u.Email, u.Name)
	}
}

func replaceProfile(existing *tenant.User, p *userProfile, now time.Time) (*userChange, *exchangeFailure) {
	for _, c := range []struct {
		name     string
		has, got string
		sent     bool
	}{
		{"email", existing.Email, wire.Deref(p.Email), p.Email != nil},
		{"username", existing.Username, wire.Deref(p.Username), p.Username != nil},
		{"phone_number", existing.PhoneNumber, wire.Deref(p.PhoneNumber), p.PhoneNumber != nil},
	} {
		if c.has != c.got && (c.sent || c.has != "") {
			return nil, invalidUser(c.name+" cannot be changed by a replace.",
				"setUserByConnection: %s cannot be changed by a replace (the user's is %q, the action sent %q).", c.name, c.has, c.got)
		}
	}
	if p.EmailVerified != nil && *p.EmailVerified != existing.EmailVerified {
		return nil, invalidUser("email_verified cannot be changed by a replace.", "setUserByConnection: email_verified cannot be changed by a replace.")
	}
	if p.PhoneVerified != nil && (existing.PhoneVerified == nil || *existing.PhoneVerified != *p.PhoneVerified) {
		return nil, invalidUser("phone_verified cannot be changed by a replace.", "setUserByConnection: phone_verified cannot be changed by a replace.")
	}
	u := *existing
	p.applyNames(&u)
	u.UpdatedAt = wire.Millis(now)
	return &userChange{user: &u}, nil
}

func optionEnum(options map[string]json.RawMessage, k string, values ...string) (string, *exchangeFailure) {
	var v string
	raw, ok := options[k]
	if !ok || json.Unmarshal(raw, &v) != nil || !slices.Contains(values, v) {
		return "", badCall("setUserByConnection: options.%s must be one of %s.", k, strings.Join(values, ", "))
	}
	return v, nil
}

// mergeMetadata applies setAppMetadata/setUserMetadata calls to a user's
// metadata: keys are merged, a null value removes its key (api object
// [R]).
func mergeMetadata(current json.RawMessage, sets [][2]json.RawMessage) (json.RawMessage, error) {
	if len(sets) == 0 {
		return current, nil
	}
	m := map[string]json.RawMessage{}
	if len(current) > 0 {
		if err := json.Unmarshal(current, &m); err != nil {
			return nil, err
		}
	}
	for _, kv := range sets {
		var k string
		if err := json.Unmarshal(kv[0], &k); err != nil {
			return nil, err
		}
		if string(kv[1]) == "null" {
			delete(m, k)
			continue
		}
		m[k] = kv[1]
	}
	return json.Marshal(m)
}
