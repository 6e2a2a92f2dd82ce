package tenant

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// DatabaseConnection is the tenant's default database connection, which a
// fresh tenant has (SeedDefaultConnection). Other connections are made
// through /connections; a user create that names none of them is 400 "The
// connection does not exist." (errorCode inexistent_connection).
const DatabaseConnection = "Username-Password-Authentication"

// User is a stored user. The password is never kept: nothing reads it.
type User struct {
	UserID string `json:"user_id"`
	// Connection is the name of the user's connection, empty for the
	// database connection; Provider its strategy, empty for auth0.
	Connection    string          `json:"connection,omitempty"`
	Provider      string          `json:"provider,omitempty"`
	Social        bool            `json:"social,omitempty"`
	Email         string          `json:"email"`
	EmailVerified bool            `json:"email_verified"`
	Username      string          `json:"username,omitempty"`
	PhoneNumber   string          `json:"phone_number,omitempty"`
	PhoneVerified *bool           `json:"phone_verified,omitempty"`
	GivenName     string          `json:"given_name,omitempty"`
	FamilyName    string          `json:"family_name,omitempty"`
	Name          string          `json:"name"`
	Nickname      string          `json:"nickname"`
	Picture       string          `json:"picture"`
	Blocked       *bool           `json:"blocked,omitempty"`
	UserMetadata  json.RawMessage `json:"user_metadata,omitempty"`
	AppMetadata   json.RawMessage `json:"app_metadata,omitempty"`
	CreatedAt     string          `json:"created_at"`
	UpdatedAt     string          `json:"updated_at"`
	LastLogin     string          `json:"last_login,omitempty"`
	LoginsCount   int64           `json:"logins_count,omitempty"`
	Seq           int64           `json:"seq"`
}

// View is the user as the API shows it: keys in alphabetical order but
// app_metadata, which comes last (the recorded order), and the keys never
// set left out.
func (u *User) View() wire.Ordered {
	all := map[string]any{
		"created_at": u.CreatedAt, "email": u.Email, "email_verified": u.EmailVerified, "name": u.Name, "nickname": u.Nickname,
		"picture": u.Picture, "updated_at": u.UpdatedAt, "user_id": u.UserID,
		"identities": []wire.Ordered{u.identity()},
	}
	for k, v := range map[string]string{"username": u.Username, "phone_number": u.PhoneNumber, "given_name": u.GivenName, "family_name": u.FamilyName} {
		if v != "" {
			all[k] = v
		}
	}
	for k, v := range map[string]*bool{"blocked": u.Blocked, "phone_verified": u.PhoneVerified} {
		if v != nil {
			all[k] = *v
		}
	}
	if u.UserMetadata != nil {
		all["user_metadata"] = u.UserMetadata
	}
	if u.LoginsCount > 0 {
		all["logins_count"], all["last_login"] = u.LoginsCount, u.LastLogin
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	o := wire.Ordered{}
	for _, k := range keys {
		o = append(o, wire.Ordered{{k, all[k]}}...)
	}
	if u.AppMetadata != nil {
		o = append(o, wire.Ordered{{"app_metadata", u.AppMetadata}}...)
	}
	return o
}

// Member is a user as GET /roles/{id}/users shows it (recorded order).
func (u *User) Member() wire.Ordered {
	return wire.Ordered{{"user_id", u.UserID}, {"email", u.Email}, {"picture", u.Picture}, {"name", u.Name}}
}

// Gravatar is the default picture: Gravatar by the e-mail's MD5, falling
// back to an avatar of the name's first two letters (as recorded:
// chuck@example.com gave .../avatar/0b79e7da…?s=480&r=pg&d=…%2Fch.png).
func Gravatar(email, name string) string {
	sum := md5.Sum([]byte(strings.ToLower(strings.TrimSpace(email))))
	initials := strings.ToLower(name)
	if len(initials) > 2 {
		initials = initials[:2]
	}
	fallback := "https://cdn.auth0.com/avatars/" + initials + ".png"
	return "https://s.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?s=480&r=pg&d=" + url.QueryEscape(fallback)
}

// RolesOf lists the ids of the roles a user is in, sorted.
func (s *Tenant) RolesOf(userID string) []string {
	out := []string{}
	for roleID, members := range s.St.RoleUsers {
		if _, in := members[userID]; in {
			out = append(out, roleID)
		}
	}
	sort.Strings(out)
	return out
}

func (u *User) IsBlocked() bool { return u.Blocked != nil && *u.Blocked }

// UserPermissions are the permissions the user's roles give on an API.
func (s *Tenant) UserPermissions(userID, audience string) []string {
	var out []string
	for _, roleID := range s.RolesOf(userID) {
		for name := range s.St.RolePerms[roleID][audience] {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}
