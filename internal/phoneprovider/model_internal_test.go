package phoneprovider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func model(t *testing.T, p mgmt.PhoneProvider, version types.Int64) resourceModel {
	t.Helper()
	m := takenOver(p.Name)
	m.CredentialsWOVersion = version
	if d := m.fromAPI(context.Background(), &p); d.HasError() {
		t.Fatal(d)
	}
	return m
}

// TestToUpdate: an update sends what changed, the configuration whole, and
// the credentials with a new version or a new name.
func TestToUpdate(t *testing.T) {
	ctx := context.Background()
	custom := mgmt.PhoneProvider{ID: "pro_1", Name: "custom", Configuration: &mgmt.PhoneConfiguration{DeliveryMethods: []string{"text"}}}
	twilio := mgmt.PhoneProvider{ID: "pro_1", Name: "twilio", Configuration: &mgmt.PhoneConfiguration{SID: "AC1", DefaultFrom: "+1", DeliveryMethods: []string{"voice", "text"}}}
	disabled := twilio
	disabled.Disabled = true
	v1, v2 := types.Int64Value(1), types.Int64Value(2)
	token := mgmt.PhoneCredentials{AuthToken: "tok"}
	for name, tc := range map[string]struct {
		state, plan resourceModel
		creds       mgmt.PhoneCredentials
		want        string
	}{
		"nothing":          {model(t, twilio, v1), model(t, twilio, v1), token, `{}`},
		"disabled":         {model(t, twilio, v1), model(t, disabled, v1), token, `{"disabled":true}`},
		"new version":      {model(t, twilio, v1), model(t, twilio, v2), token, `{"credentials":{"auth_token":"tok"}}`},
		"to twilio":        {model(t, custom, types.Int64Null()), model(t, twilio, v1), token, `{"name":"twilio","configuration":{"sid":"AC1","default_from":"+1","delivery_methods":["text","voice"]},"credentials":{"auth_token":"tok"}}`},
		"to custom":        {model(t, twilio, v1), model(t, custom, types.Int64Null()), mgmt.PhoneCredentials{}, `{"name":"custom","configuration":{"delivery_methods":["text"]},"credentials":{}}`},
		"new sender whole": {model(t, custom, types.Int64Null()), model(t, mgmt.PhoneProvider{ID: "pro_1", Name: "custom", Configuration: &mgmt.PhoneConfiguration{DeliveryMethods: []string{"voice", "text"}}}, types.Int64Null()), mgmt.PhoneCredentials{}, `{"configuration":{"delivery_methods":["text","voice"]}}`},
	} {
		u, d := tc.plan.toUpdate(ctx, tc.state, tc.creds)
		if d.HasError() {
			t.Fatal(d)
		}
		b, _ := json.Marshal(u)
		if string(b) != tc.want {
			t.Errorf("%s: %s, want %s", name, b, tc.want)
		}
	}
}

// TestFromAPI_roundTrip: what the tenant shows comes back as the create
// sends it, empty Twilio settings as null.
func TestFromAPI_roundTrip(t *testing.T) {
	ctx := context.Background()
	p := mgmt.PhoneProvider{ID: "pro_1", Name: "custom", Channel: "phone", Configuration: &mgmt.PhoneConfiguration{DeliveryMethods: []string{"voice", "text"}}}
	m := model(t, p, types.Int64Null())
	var c configurationModel
	m.Configuration.As(ctx, &c, basetypes.ObjectAsOptions{})
	if !c.SID.IsNull() || !c.DefaultFrom.IsNull() || !c.MSSID.IsNull() || len(c.DeliveryMethods.Elements()) != 2 {
		t.Fatalf("%+v", c)
	}
	body, d := m.toCreate(ctx, mgmt.PhoneCredentials{})
	b, _ := json.Marshal(body)
	if d.HasError() || string(b) != `{"name":"custom","disabled":false,"configuration":{"delivery_methods":["text","voice"]},"credentials":{}}` {
		t.Fatalf("%s %v", b, d)
	}
	if !same(body, &p) {
		t.Fatal("the provider the create made is not the same")
	}
	p.Disabled = true
	if same(body, &p) {
		t.Fatal("a disabled provider is the same")
	}
}
