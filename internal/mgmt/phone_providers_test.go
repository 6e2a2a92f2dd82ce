package mgmt_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestPhoneProviders_bodies: create sends every field (credentials {} for a
// custom provider, as the recorded create did); an update only the fields
// set, the configuration whole.
func TestPhoneProviders_bodies(t *testing.T) {
	var bodies []string
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, r.Method+" "+r.URL.EscapedPath()+" "+string(b))
		switch r.Method {
		case http.MethodDelete:
			jsonReply(w, 404, `{"statusCode":404,"error":"Not Found","message":"Notification Resource not found"}`)
		case http.MethodPost:
			jsonReply(w, 201, `{"id":"pro_1","tenant":"t","name":"custom","channel":"phone","disabled":false,"configuration":{"delivery_methods":["text"]},"created_at":"2025-02-03T12:43:17.645Z","updated_at":"2025-02-03T12:43:17.645Z"}`)
		default:
			jsonReply(w, 200, `{"id":"pro_1","tenant":"t","name":"twilio","channel":"phone","disabled":true,"configuration":{"sid":"s","default_from":"+1","delivery_methods":["text","voice"]}}`)
		}
	})
	c := f.client(t)
	ctx := context.Background()
	p, err := c.CreatePhoneProvider(ctx, mgmt.PhoneProviderCreate{Name: "custom", Configuration: mgmt.PhoneConfiguration{DeliveryMethods: []string{"text"}}})
	if err != nil || p.ID != "pro_1" || p.Configuration.DeliveryMethods[0] != "text" {
		t.Fatalf("%+v %v", p, err)
	}
	if _, err := c.UpdatePhoneProvider(ctx, "pro_1", mgmt.PhoneProviderUpdate{Disabled: mgmt.Set(true)}); err != nil {
		t.Fatal(err)
	}
	p, err = c.UpdatePhoneProvider(ctx, "pro_1", mgmt.PhoneProviderUpdate{
		Name:          mgmt.Set("twilio"),
		Configuration: mgmt.Set(mgmt.PhoneConfiguration{SID: "s", DefaultFrom: "+1", DeliveryMethods: []string{"text", "voice"}}),
		Credentials:   mgmt.Set(mgmt.PhoneCredentials{AuthToken: "tok"}),
	})
	if err != nil || p.Name != "twilio" || !p.Disabled {
		t.Fatalf("%+v %v", p, err)
	}
	if err := c.DeletePhoneProvider(ctx, "pro_1"); err != nil {
		t.Fatalf("a provider already gone: %v", err)
	}
	want := []string{
		`POST /api/v2/branding/phone/providers {"name":"custom","disabled":false,"configuration":{"delivery_methods":["text"]},"credentials":{}}`,
		`PATCH /api/v2/branding/phone/providers/pro_1 {"disabled":true}`,
		`PATCH /api/v2/branding/phone/providers/pro_1 {"name":"twilio","configuration":{"sid":"s","default_from":"+1","delivery_methods":["text","voice"]},"credentials":{"auth_token":"tok"}}`,
		`DELETE /api/v2/branding/phone/providers/pro_1 `,
	}
	for i := range want {
		if i >= len(bodies) || bodies[i] != want[i] {
			t.Fatalf("requests:\n%s\nwant:\n%s", fmt.Sprint(bodies), fmt.Sprint(want))
		}
	}
}
