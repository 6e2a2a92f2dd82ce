package emulator

import "testing"

// TestPhoneProviders_nestedKeys: the create body allows other keys, the
// PATCH body does not; configuration and credentials take only their own
// keys (published specification).
func TestPhoneProviders_nestedKeys(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	const phone = "/api/v2/branding/phone/providers"
	for body, want := range map[string]string{
		`{"name":"custom","configuration":{"delivery_methods":["text"],"region":"eu"},"credentials":{}}`:                                         `'Additional properties not allowed: region' on property configuration.`,
		`{"name":"custom","configuration":{"delivery_methods":["text"]},"credentials":{"api_key":"k"}}`:                                          `'Additional properties not allowed: api_key' on property credentials.`,
		`{"name":"twilio","configuration":{"sid":"AC1","default_from":"+15550000","delivery_methods":["text"]},"credentials":{"auth_token":""}}`: `on property credentials.auth_token.`,
	} {
		h.expect(h.call(tok, "POST", phone, body), 400, want)
	}
	r := h.call(tok, "POST", phone, `{"name":"custom","configuration":{"delivery_methods":["text"]},"credentials":{},"tenant":"ignored"}`)
	h.expect(r, 201)
	id := r.json(t)["id"].(string)
	h.expect(h.call(tok, "PATCH", phone+"/"+id, `{"disabled":true,"tenant":"x"}`), 400, `Additional properties not allowed: tenant`)
	h.expect(h.call(tok, "PATCH", phone+"/"+id, `{"credentials":{"auth_token":"t","sid":"AC1"}}`), 400, `'Additional properties not allowed: sid' on property credentials.`)
	h.expect(h.call(tok, "PATCH", phone+"/"+id, `{"name":"twilio","configuration":{"sid":"AC1","mssid":"MG1","delivery_methods":["voice"]},"credentials":{"auth_token":"t"}}`), 200, `"mssid":"MG1"`)
}
