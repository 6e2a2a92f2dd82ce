package emulator

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"
)

// rsaCertPEM makes a self-signed RSA certificate and returns its PEM and
// the SHA-256 of its DER, base64url.
func rsaCertPEM(t *testing.T) (string, string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "enc"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), base64.RawURLEncoding.EncodeToString(sum[:])
}

func TestResourceServers_wholeObject(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	certPEM, certThumb := rsaCertPEM(t)
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	spki, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	pubPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki}))
	pubSum := sha256.Sum256(spki)
	pubThumb := base64.RawURLEncoding.EncodeToString(pubSum[:])
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	ecPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecDER}))

	// A bare create: the default subject_type_authorization in the API's key
	// order, and none of the optional objects.
	r := h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://bare.example.com"}`)
	h.expect(r, 201, `"skip_consent_for_verifiable_first_party_clients":false,"subject_type_authorization":{"client":{"policy":"require_client_grant"},"user":{"policy":"allow_all"}},"token_lifetime":86400`)
	for _, k := range []string{"allow_online_access", "consent_policy", "authorization_details", "token_encryption", "proof_of_possession", "authorization_policy", "null"} {
		if strings.Contains(r.body, k) {
			t.Fatalf("bare create shows %s: %s", k, r.body)
		}
	}

	// Create with every field.
	create := map[string]any{
		"identifier":          "https://full.example.com",
		"name":                "Full",
		"allow_online_access": false,
		"allow_online_access_with_ephemeral_sessions": true,
		"subject_type_authorization":                  map[string]any{"user": map[string]any{"policy": "deny_all"}},
		"consent_policy":                              "transactional-authorization-with-mfa",
		"authorization_details":                       []any{map[string]any{"type": "payment"}},
		"proof_of_possession":                         map[string]any{"mechanism": "dpop", "required": true, "required_for": "all_clients"},
		"token_encryption": map[string]any{"format": "compact-nested-jwe",
			"encryption_key": map[string]any{"name": "k1", "alg": "RSA-OAEP-256", "kid": "kid-1", "pem": certPEM}},
		"authorization_policy": map[string]any{"policy_id": "pol_1"},
		"enforce_policies":     true,
		"token_dialect":        "access_token_authz",
	}
	r = h.call(tok, "POST", "/api/v2/resource-servers", create)
	h.expect(r, 201,
		`"skip_consent_for_verifiable_first_party_clients":false,"allow_online_access":false,"allow_online_access_with_ephemeral_sessions":true,"subject_type_authorization":{"client":{"policy":"require_client_grant"},"user":{"policy":"deny_all"}},"token_lifetime"`,
		`"consent_policy":"transactional-authorization-with-mfa"`,
		`"authorization_details":[{"type":"payment"}]`,
		`"proof_of_possession":{"mechanism":"dpop","required":true,"required_for":"all_clients"}`,
		`"token_encryption":{"format":"compact-nested-jwe","encryption_key":{"name":"k1","alg":"RSA-OAEP-256","kid":"kid-1","thumbprint_sha256":"`+certThumb+`"}}`,
		`"authorization_policy":{"policy_id":"pol_1"}`)
	if strings.Contains(r.body, "pem") || strings.Contains(r.body, "BEGIN") {
		t.Fatalf("pem returned: %s", r.body)
	}
	id := r.json(t)["id"].(string)
	got := h.call(tok, "GET", "/api/v2/resource-servers/"+id, nil)
	h.expect(got, 200)
	if got.body != r.body {
		t.Fatalf("read differs from create:\n%s\n%s", got.body, r.body)
	}

	// Change each field.
	r = h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, map[string]any{
		"allow_online_access":        true,
		"subject_type_authorization": map[string]any{"client": map[string]any{"policy": "deny_all"}},
		"authorization_details":      []any{map[string]any{"type": "a"}, map[string]any{"type": "b"}},
		"proof_of_possession":        map[string]any{"mechanism": "mtls", "required": false},
		"token_encryption": map[string]any{"format": "compact-nested-jwe",
			"encryption_key": map[string]any{"alg": "RSA-OAEP-512", "pem": pubPEM}},
		"authorization_policy": map[string]any{"policy_id": "pol_2"},
	})
	h.expect(r, 200, `"allow_online_access":true`,
		// Only client was sent: user keeps deny_all.
		`"subject_type_authorization":{"client":{"policy":"deny_all"},"user":{"policy":"deny_all"}}`,
		`"authorization_details":[{"type":"a"},{"type":"b"}]`,
		`"proof_of_possession":{"mechanism":"mtls","required":false}`,
		`"token_encryption":{"format":"compact-nested-jwe","encryption_key":{"alg":"RSA-OAEP-512","thumbprint_sha256":"`+pubThumb+`"}}`,
		`"authorization_policy":{"policy_id":"pol_2"}`,
		`"consent_policy":"transactional-authorization-with-mfa"`)
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"subject_type_authorization":{"user":{"policy":"require_client_grant"}}}`), 200,
		`"subject_type_authorization":{"client":{"policy":"deny_all"},"user":{"policy":"require_client_grant"}}`)

	// Clear every nullable field with null: the keys disappear.
	nulls := []string{"name", "enforce_policies", "token_dialect", "allow_online_access", "allow_online_access_with_ephemeral_sessions",
		"consent_policy", "authorization_details", "token_encryption", "proof_of_possession", "authorization_policy", "scopes"}
	for _, k := range nulls {
		h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"`+k+`":null}`), 200)
	}
	got = h.call(tok, "GET", "/api/v2/resource-servers/"+id, nil)
	m := got.json(t)
	for _, k := range nulls {
		if _, ok := m[k]; ok {
			t.Errorf("%s still present after null: %s", k, got.body)
		}
	}
	// A null subject_type_authorization returns to the default.
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"subject_type_authorization":null}`), 200,
		`"subject_type_authorization":{"client":{"policy":"require_client_grant"},"user":{"policy":"allow_all"}}`)
	// A null never set is accepted and the key stays absent (reference §0.2).
	r = h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"name":null,"token_encryption":null,"proof_of_possession":null,"consent_policy":null,"authorization_details":null,"authorization_policy":null}`)
	h.expect(r, 200)
	if strings.Contains(r.body, "null") || strings.Contains(r.body, `"name"`) {
		t.Fatalf("null echoed: %s", r.body)
	}

	// Refusals, in the API's message grammar; a refused PATCH changes nothing.
	before := h.call(tok, "GET", "/api/v2/resource-servers/"+id, nil).body
	encKey := func(k map[string]any) map[string]any {
		return map[string]any{"token_encryption": map[string]any{"format": "compact-nested-jwe", "encryption_key": k}}
	}
	for _, tc := range []struct {
		name string
		body any
		want string
	}{
		{"consent enum", `{"consent_policy":"always"}`, `Payload validation error: 'No enum match for: \"always\"' on property consent_policy.`},
		{"user policy enum", `{"subject_type_authorization":{"user":{"policy":"x"}}}`, `'No enum match for: \"x\"' on property subject_type_authorization.user.policy.`},
		{"client allow_all", `{"subject_type_authorization":{"client":{"policy":"allow_all"}}}`, `'No enum match for: \"allow_all\"' on property subject_type_authorization.client.policy.`},
		{"policy missing", `{"subject_type_authorization":{"user":{}}}`, `'Missing required property: policy' on property subject_type_authorization.user.`},
		{"sta extra", `{"subject_type_authorization":{"group":{"policy":"allow_all"}}}`, `'Additional properties not allowed: group' on property subject_type_authorization.`},
		{"pop mechanism enum", `{"proof_of_possession":{"mechanism":"x","required":true}}`, `'No enum match for: \"x\"' on property proof_of_possession.mechanism.`},
		{"pop required missing", `{"proof_of_possession":{"mechanism":"dpop"}}`, `'Missing required property: required' on property proof_of_possession.`},
		{"pop required type", `{"proof_of_possession":{"mechanism":"dpop","required":"yes"}}`, `'Expected type boolean but found type string' on property proof_of_possession.required.`},
		{"pop required_for enum", `{"proof_of_possession":{"mechanism":"dpop","required":true,"required_for":"some"}}`, `on property proof_of_possession.required_for.`},
		{"pop extra", `{"proof_of_possession":{"mechanism":"dpop","required":true,"x":1,"a":2}}`, `'Additional properties not allowed: a,x' on property proof_of_possession.`},
		{"pop type", `{"proof_of_possession":"dpop"}`, `'Expected type object but found type string' on property proof_of_possession.`},
		{"details type", `{"authorization_details":{"type":"x"}}`, `'Expected type array but found type object' on property authorization_details.`},
		{"details item type missing", `{"authorization_details":[{"type":"a"},{}]}`, `'Missing required property: type' on property authorization_details[1].`},
		{"details item not an object", `{"authorization_details":["a"]}`, `'Expected type object but found type string' on property authorization_details[0].`},
		{"policy_id missing", `{"authorization_policy":{}}`, `'Missing required property: policy_id' on property authorization_policy.`},
		{"online type", `{"allow_online_access":"yes"}`, `'Expected type boolean but found type string' on property allow_online_access.`},
		{"enc format", map[string]any{"token_encryption": map[string]any{"format": "jwe", "encryption_key": map[string]any{"alg": "RSA-OAEP-256", "pem": certPEM}}}, `'No enum match for: \"jwe\"' on property token_encryption.format.`},
		{"enc key missing", `{"token_encryption":{"format":"compact-nested-jwe"}}`, `'Missing required property: encryption_key' on property token_encryption.`},
		{"enc alg enum", encKey(map[string]any{"alg": "RSA1_5", "pem": certPEM}), `'No enum match for: \"RSA1_5\"' on property token_encryption.encryption_key.alg.`},
		{"enc pem missing", encKey(map[string]any{"alg": "RSA-OAEP-256"}), `'Missing required property: pem' on property token_encryption.encryption_key.`},
		{"enc key extra", encKey(map[string]any{"alg": "RSA-OAEP-256", "pem": certPEM, "thumbprint_sha256": "x"}), `'Additional properties not allowed: thumbprint_sha256' on property token_encryption.encryption_key.`},
		{"enc pem garbage", encKey(map[string]any{"alg": "RSA-OAEP-256", "pem": "not a pem"}), `'Invalid PEM: no PEM block found' on property token_encryption.encryption_key.pem.`},
		{"enc pem broken", encKey(map[string]any{"alg": "RSA-OAEP-256", "pem": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"}), `'Invalid PEM: the certificate does not parse' on property token_encryption.encryption_key.pem.`},
		{"enc pem not rsa", encKey(map[string]any{"alg": "RSA-OAEP-256", "pem": ecPEM}), `'Invalid PEM: the key is not an RSA key' on property token_encryption.encryption_key.pem.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, tc.body)
			h.expect(r, 400, `"errorCode":"invalid_body"`)
			var e map[string]any
			_ = json.Unmarshal([]byte(r.body), &e)
			if msg, _ := e["message"].(string); !strings.Contains(msg, strings.ReplaceAll(tc.want, `\"`, `"`)) {
				t.Fatalf("message %q lacks %q", msg, tc.want)
			}
		})
	}
	if after := h.call(tok, "GET", "/api/v2/resource-servers/"+id, nil).body; after != before {
		t.Fatalf("a refused PATCH changed the object:\n%s\n%s", before, after)
	}
	// Create refuses the same way.
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://c.example.com","proof_of_possession":{"required":true}}`), 400,
		`Missing required property: mechanism' on property proof_of_possession.`)

	// The system API accepts only its three fields.
	sysID := ""
	for _, rs := range h.s.State().ResourceServers {
		var x map[string]any
		_ = json.Unmarshal(rs, &x)
		if x["is_system"] == true {
			sysID = x["id"].(string)
		}
	}
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+sysID, `{"subject_type_authorization":{"user":{"policy":"deny_all"}},"token_lifetime":7200,"skip_consent_for_verifiable_first_party_clients":true}`), 200,
		`"user":{"policy":"deny_all"}`, `"token_lifetime":7200`)
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+sysID, `{"proof_of_possession":null}`), 400, "Additional properties not allowed: proof_of_possession")
}

// TestResourceServers_nestedKeys: the nested objects whose specification
// allows other keys (subject_type_authorization.user and .client, the items
// of authorization_details) accept them; the others refuse them (above).
func TestResourceServers_nestedKeys(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://nested.example.com","subject_type_authorization":{"user":{"policy":"deny_all","note":1},"client":{"policy":"deny_all","x":[]}},`+
		`"authorization_details":[{"type":"payment_initiation","actions":["initiate"],"locations":["https://bank.example.com"]}]}`)
	h.expect(r, 201, `"subject_type_authorization":{"client":{"policy":"deny_all"},"user":{"policy":"deny_all"}}`,
		`"authorization_details":[{"type":"payment_initiation","actions":["initiate"],"locations":["https://bank.example.com"]}]`)
	id := r.json(t)["id"].(string)
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"subject_type_authorization":{"user":{"policy":"allow_all","note":"x"}},"authorization_details":[{"type":"a","b":{"c":1}}]}`), 200,
		`"user":{"policy":"allow_all"}`, `"authorization_details":[{"type":"a","b":{"c":1}}]`)
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"authorization_details":[{"type":""}]}`), 400, `on property authorization_details[0].type.`)
}
