package emulator

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// recordedUser is the create body of TestRoleManager_Users.yaml.
const recordedUser = `{"connection":"Username-Password-Authentication","email":"chuck728@example.com","given_name":"Chuck","family_name":"Sanchez",` +
	`"username":"test-user213","nickname":"Chucky","password":"Passwords hide their chuck","user_metadata":{"favourite_attack":"roundhouse_kick"},` +
	`"verify_email":false,"app_metadata":{"facts":["count_to_infinity_twice","kill_two_stones_with_one_bird","can_hear_sign_language"]},` +
	`"picture":"https://example-picture-url.jpg","blocked":false,"email_verified":true}`

var userID = regexp.MustCompile(`^auth0\|[0-9a-f]{24}$`)

func TestUsers_createReadListDelete(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/users", recordedUser)
	h.expect(r, 201)
	u := r.json(t)
	id, _ := u["user_id"].(string)
	if !userID.MatchString(id) {
		t.Fatalf("user_id %q", id)
	}
	// The recorded answer's keys, in its order.
	keys := regexp.MustCompile(`^\{"blocked":false,"created_at":"[^"]+Z","email":"chuck728@example.com","email_verified":true,"family_name":"Sanchez","given_name":"Chuck",` +
		`"identities":\[\{"connection":"Username-Password-Authentication","user_id":"` + strings.TrimPrefix(id, "auth0|") + `","provider":"auth0","isSocial":false\}\],` +
		`"name":"chuck728@example.com","nickname":"Chucky","picture":"https://example-picture-url.jpg","updated_at":"[^"]+Z","user_id":"auth0\|[0-9a-f]{24}",` +
		`"user_metadata":\{"favourite_attack":"roundhouse_kick"\},"username":"test-user213","app_metadata":\{"facts":\[[^\]]+\]\}\}\n$`)
	if !keys.MatchString(r.body) {
		t.Fatalf("create answer %s", r.body)
	}
	if strings.Contains(r.body, "Passwords hide") {
		t.Fatal("the password is shown")
	}
	path := "/api/v2/users/" + strings.ReplaceAll(id, "|", "%7C")
	got := h.call(tok, "GET", path, nil)
	h.expect(got, 200)
	if !reflect.DeepEqual(got.json(t), u) {
		t.Fatalf("read %s, created %s", got.body, r.body)
	}

	// Defaults of a minimal create (TestUserManager_Create.yaml).
	r = h.call(tok, "POST", "/api/v2/users", `{"connection":"Username-Password-Authentication","email":"chuck@example.com","username":"chuck","password":"I have a password and its a secret"}`)
	h.expect(r, 201, `"email_verified":false`, `"name":"chuck@example.com","nickname":"chuck",`,
		`"picture":"https://s.gravatar.com/avatar/0b79e7da7bc7877560620cf8f2cc93ae?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fch.png"`)
	if strings.Contains(r.body, "blocked") || strings.Contains(r.body, "metadata") {
		t.Fatalf("keys never set are shown: %s", r.body)
	}
	second := r.json(t)["user_id"].(string)

	// Search as the recording does, with the /users envelope (length included).
	r = h.call(tok, "GET", `/api/v2/users?include_totals=true&per_page=50&q=username%3A%22test-user213%22&search_engine=v3`, nil)
	h.expect(r, 200, `{"start":0,"limit":50,"length":1,"users":[{"blocked":false,`, `"user_id":"`+id+`"`, `],"total":1}`)
	r = h.call(tok, "GET", `/api/v2/users?q=email:"chuck@example.com"`, nil)
	h.expect(r, 200, `"user_id":"`+second+`"`)
	if strings.HasPrefix(r.body, "{") || strings.Contains(r.body, id) {
		t.Fatalf("search without totals %s", r.body)
	}
	h.expect(h.call(tok, "GET", `/api/v2/users?include_totals=true&page=1&per_page=1`, nil), 200, `{"start":1,"limit":1,"length":1,"users":[`, `"total":2}`)
	h.expect(h.call(tok, "GET", `/api/v2/users?q=email:chuck*`, nil), 400, `"errorCode":"invalid_query_string"`, "emulator")

	// Refusals.
	for body, want := range map[string]string{
		`{"email":"a@example.com","password":"p4ssw0rd!"}`:                                                        `'Missing required property: connection'.`,
		`{"connection":"Username-Password-Authentication","email":"a@example.com","password":"p4ssw0rd!","x":1}`:  `Additional properties not allowed: x`,
		`{"connection":"Username-Password-Authentication","email":"not-an-email","password":"p4ssw0rd!"}`:         `format email`,
		`{"connection":"Username-Password-Authentication","password":"p4ssw0rd!"}`:                                `'Missing required property: email'.`,
		`{"connection":"Username-Password-Authentication","email":"a@example.com"}`:                               `'Missing required property: password'.`,
		`{"connection":"Username-Password-Authentication","email":"a@example.com","password":"p","blocked":"no"}`: `on property blocked.`,
	} {
		h.expect(h.call(tok, "POST", "/api/v2/users", body), 400, want)
	}
	h.expect(h.call(tok, "POST", "/api/v2/users", `{"connection":"google-oauth2","email":"a@example.com","password":"p"}`), 400, `"message":"The connection does not exist."`)
	h.expect(h.call(tok, "POST", "/api/v2/users", `{"connection":"Username-Password-Authentication","email":"chuck@example.com","password":"p"}`), 409, "The user already exists.")

	// Deleted: 204, again 204, then 404 (TestUserManager_Delete.yaml).
	h.expect(h.call(tok, "DELETE", path, nil), 204)
	h.expect(h.call(tok, "DELETE", path, nil), 204)
	h.expect(h.call(tok, "GET", path, nil), 404, `{"statusCode":404,"error":"Not Found","message":"The user does not exist.","errorCode":"inexistent_user"}`)

	h.s.AddClient(Client{ID: "roles-only", Secret: "s", Scopes: []string{"read:roles", "update:roles"}})
	h.expect(h.call(h.tokenFor("roles-only", "s"), "GET", "/api/v2/users", nil), 403, "read:users")
}

// TestRoles_users: POST /roles/{id}/users and GET /roles/{id}/users, offset
// and checkpoint pages (TestRoleManager_Users.yaml,
// TestRoleManager_UsersCheckpointPagination.yaml).
func TestRoles_users(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	var ids []string
	for _, email := range []string{"one@example.com", "two@example.com", "three@example.com"} {
		r := h.call(tok, "POST", "/api/v2/users", map[string]any{"connection": "Username-Password-Authentication", "email": email, "password": "p4ssw0rd!"})
		h.expect(r, 201)
		ids = append(ids, r.json(t)["user_id"].(string))
	}
	role := h.call(tok, "POST", "/api/v2/roles", `{"name":"members"}`).json(t)["id"].(string)
	users := "/api/v2/roles/" + role + "/users"
	h.expect(h.call(tok, "GET", users+"?include_totals=true&per_page=50", nil), 200, `{"users":[],"start":0,"limit":50,"total":0}`)
	r := h.call(tok, "POST", users, map[string]any{"users": ids[:1]})
	h.expect(r, 200)
	if r.body != "{}\n" {
		t.Fatalf("assign answer %q", r.body)
	}
	h.expect(h.call(tok, "GET", users+"?include_totals=true&per_page=50", nil), 200,
		`{"users":[{"user_id":"`+ids[0]+`","email":"one@example.com","picture":"https://s.gravatar.com/avatar/`, `","name":"one@example.com"}],"start":0,"limit":50,"total":1}`)
	h.expect(h.call(tok, "POST", users, map[string]any{"users": ids}), 200)
	h.expect(h.call(tok, "GET", users, nil), 200, `[{"user_id":"`+ids[0]+`"`)

	// Checkpoint pages: take wins over include_totals, next is left out at the end.
	r = h.call(tok, "GET", users+"?include_totals=true&per_page=50&take=2", nil)
	h.expect(r, 200, `"next":"`)
	page1 := r.json(t)
	if len(page1["users"].([]any)) != 2 || page1["start"] != nil {
		t.Fatalf("first page %s", r.body)
	}
	r = h.call(tok, "GET", users+"?take=2&from="+page1["next"].(string), nil)
	h.expect(r, 200)
	if strings.Contains(r.body, "next") || len(r.json(t)["users"].([]any)) != 1 {
		t.Fatalf("last page %s", r.body)
	}

	// A deleted user leaves the role.
	h.expect(h.call(tok, "DELETE", "/api/v2/users/"+ids[1], nil), 204)
	h.expect(h.call(tok, "GET", users+"?include_totals=true", nil), 200, `"total":2}`)

	h.expect(h.call(tok, "POST", users, `{"users":[]}`), 400, `'Array is too short (0), minimum 1' on property users.`)
	h.expect(h.call(tok, "POST", users, `{"users":["auth0|000000000000000000000000"]}`), 404, "The user does not exist.")
	h.expect(h.call(tok, "POST", users, `{"user":["x"]}`), 400, "Additional properties not allowed: user")
	// The body is checked whole before any id is looked up, as for an
	// organization's members and a member's roles.
	h.expect(h.call(tok, "POST", users, `{"users":["auth0|000000000000000000000000",1]}`), 400, `'Expected type string but found type number' on property users[1].`)
	// A repeated id is added once.
	h.expect(h.call(tok, "POST", users, map[string]any{"users": []string{ids[0], ids[0]}}), 200)
	h.expect(h.call(tok, "GET", users+"?include_totals=true", nil), 200, `"total":2}`)
	h.expect(h.call(tok, "POST", "/api/v2/roles/rol_0000000000000000/users", map[string]any{"users": ids[:1]}), 404, "The role does not exist.")
	h.expect(h.call(tok, "GET", "/api/v2/roles/rol_0000000000000000/users", nil), 404, "The role does not exist.")
	h.s.AddClient(Client{ID: "roles-only", Secret: "s", Scopes: []string{"read:roles"}})
	h.expect(h.call(h.tokenFor("roles-only", "s"), "GET", users, nil), 403, "read:users")
}

// PATCH /users/{id} changes what it sends: profile fields, blocked, and the
// metadata merged at its top level (null removes a key, {} all of them).
func TestUsers_update(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/users", recordedUser)
	h.expect(r, 201)
	path := "/api/v2/users/" + strings.ReplaceAll(r.json(t)["user_id"].(string), "|", "%7C")
	r = h.call(tok, "PATCH", path, `{"name":"Chuck Sanchez","email":"chuck@example.org","blocked":true,`+
		`"user_metadata":{"favourite_attack":null,"belt":{"colour":"black","dan":9}},"app_metadata":{}}`)
	h.expect(r, 200, `"blocked":true`, `"email":"chuck@example.org"`, `"name":"Chuck Sanchez"`, `"user_metadata":{"belt":{"colour":"black","dan":9}}`, `"username":"test-user213"`)
	if strings.Contains(r.body, "app_metadata") || strings.Contains(r.body, "favourite_attack") {
		t.Fatalf("metadata not merged: %s", r.body)
	}
	got := h.call(tok, "GET", path, nil)
	h.expect(got, 200)
	if !reflect.DeepEqual(got.json(t), r.json(t)) {
		t.Fatalf("read %s, updated %s", got.body, r.body)
	}
	h.expect(h.call(tok, "PATCH", path, `{"user_metadata":{"rank":1}}`), 200, `"user_metadata":{"belt":{"colour":"black","dan":9},"rank":1}`)

	h.expect(h.call(tok, "POST", "/api/v2/users", `{"connection":"Username-Password-Authentication","email":"other@example.com","password":"p4ssw0rd!"}`), 201)
	for body, want := range map[string]string{
		`{"email":"other@example.com"}`: "The user already exists.",
		`{"email":"not-an-email"}`:      "format email",
		`{"blocked":"yes"}`:             "on property blocked",
		`{"favourite":1}`:               "Additional properties not allowed: favourite",
		`{"user_metadata":[]}`:          "on property user_metadata",
	} {
		r := h.call(tok, "PATCH", path, body)
		if r.status != 400 && r.status != 409 || !strings.Contains(r.body, want) {
			t.Fatalf("%s: %d %s", body, r.status, r.body)
		}
	}
	h.expect(h.call(tok, "GET", path, nil), 200, `"email":"chuck@example.org"`, `"blocked":true`)
	h.expect(h.call(tok, "PATCH", "/api/v2/users/auth0%7Cnobody", `{"blocked":true}`), 404)
	h.s.AddClient(Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"read:users"}})
	h.expect(h.call(h.tokenFor("reader", "reader-secret"), "PATCH", path, `{"blocked":false}`), 403, "update:users")
}
