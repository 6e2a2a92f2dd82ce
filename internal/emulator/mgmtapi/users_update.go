package mgmtapi

import (
	"encoding/json"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// userUpdateKeys are the keys PATCH /users/{id} takes (the published
// specification's UpdateUser body, additionalProperties false).
var userUpdateKeys = []string{
	"blocked", "email_verified", "email", "phone_number", "phone_verified", "user_metadata", "app_metadata", "given_name",
	"family_name", "name", "nickname", "picture", "verify_email", "verify_phone_number", "password", "connection", "client_id", "username",
}

// updateUser changes what the body sends and answers 200 with the user.
// user_metadata and app_metadata are merged into the stored ones at their
// top level, a key set to null is removed, and {} removes every key (the
// platform's manage-users/user-accounts/metadata/manage-metadata-api page
// [R], not in the reference files). A blocked user
// fails every token exchange (token-exchange-flow.md §5).
//
// Assumptions: the strings take 1–300 characters, as on create; an email
// another user of the connection has is 409 "The user already exists."
// (errorCode auth0_idp_error); password, connection, client_id and the
// verify flags are accepted and not kept (the emulator keeps no password);
// a refused body changes nothing.
func (s *Server) updateUser(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	u, e := s.findUser(wire.PathID(r))
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	o := b.At("")
	if e := o.Only(userUpdateKeys...); e != nil {
		return e
	}
	next := *u
	for _, f := range []struct {
		key string
		dst *string
		max int
	}{
		{"email", &next.Email, 300}, {"username", &next.Username, 300}, {"given_name", &next.GivenName, 300},
		{"family_name", &next.FamilyName, 300}, {"name", &next.Name, 300}, {"nickname", &next.Nickname, 300},
		{"phone_number", &next.PhoneNumber, 300}, {"picture", &next.Picture, 0},
	} {
		if !o.Has(f.key) || o.IsNull(f.key) {
			continue
		}
		if *f.dst, e = o.Str(f.key, false, 1, f.max); e != nil {
			return e
		}
	}
	if o.Has("email") {
		if a, err := mail.ParseAddress(next.Email); err != nil || a.Address != next.Email {
			return wire.PayloadErr("Object didn't pass validation for format email: "+next.Email, "email")
		}
		for _, other := range s.St.Users {
			if other.UserID != u.UserID && other.ConnectionName() == u.ConnectionName() && strings.EqualFold(other.Email, next.Email) {
				return wire.NewErr(409, "The user already exists.", "auth0_idp_error")
			}
		}
	}
	for k, dst := range map[string]**bool{"blocked": &next.Blocked, "phone_verified": &next.PhoneVerified} {
		v, e := o.Bool(k)
		if e != nil {
			return e
		}
		if v != nil {
			*dst = v
		}
	}
	if v, e := o.Bool("email_verified"); e != nil {
		return e
	} else if v != nil {
		next.EmailVerified = *v
	}
	for _, k := range []string{"verify_email", "verify_phone_number"} {
		if _, e := o.Bool(k); e != nil {
			return e
		}
	}
	for _, k := range []string{"password", "connection", "client_id"} {
		if _, e := o.Str(k, false, 1, 0); e != nil {
			return e
		}
	}
	for _, f := range []struct {
		key string
		dst *json.RawMessage
	}{{"user_metadata", &next.UserMetadata}, {"app_metadata", &next.AppMetadata}} {
		if !o.Has(f.key) {
			continue
		}
		if _, ok, e := o.Object(f.key); e != nil {
			return e
		} else if !ok {
			continue
		}
		merged, err := mergeUserMetadata(*f.dst, b[f.key])
		if err != nil {
			return wire.PayloadErr("Expected type object", f.key)
		}
		*f.dst = merged
	}
	next.UpdatedAt = wire.Millis(time.Now())
	s.St.Users[u.UserID] = &next
	sel, e := wire.ReadFields(r, true, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(next.View()))
	return nil
}

// mergeUserMetadata merges patch into current at the top level: a null
// value removes its key, and {} removes them all. The result is nil when
// no key is left, so that the user shows no metadata.
func mergeUserMetadata(current, patch json.RawMessage) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(patch, &p); err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	if len(p) > 0 && len(current) > 0 {
		if err := json.Unmarshal(current, &m); err != nil {
			return nil, err
		}
	}
	for k, v := range p {
		if string(v) == "null" {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	if len(m) == 0 {
		return nil, nil
	}
	return wire.MustJSON(m), nil
}
