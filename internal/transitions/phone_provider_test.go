package transitions_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func TestTransitions_phoneProvider(t *testing.T) {
	walk(t, func(t *testing.T, target *acctest.Target) walker {
		return &phoneWalker{emu: target.Emulator}
	})
}

// phoneWalker walks a tenant_phone_provider between Twilio and custom, its
// settings, and its write-only token and version.
type phoneWalker struct {
	emu *emulator.Server
}

// phoneConfig is a tenant_phone_provider configuration, and the token the
// tenant holds once it is applied.
type phoneConfig struct {
	emu      *emulator.Server
	twilio   bool
	disabled *bool
	methods  []string
	mssid    bool // the Twilio sender: mssid, else default_from
	token    string
	version  int
	sent     string // the token the tenant holds
}

func (w *phoneWalker) First(r *rand.Rand) config {
	c := &phoneConfig{emu: w.emu, methods: []string{"text"}, token: "token-0", version: 1}
	w.mutate(r, c)
	c.send()
	return c
}

func (w *phoneWalker) Next(r *rand.Rand, prev config) config {
	p := prev.(*phoneConfig)
	c := *p
	c.methods = slices.Clone(p.methods)
	w.mutate(r, &c)
	// A new name or a new version sends the token (none for custom).
	if c.twilio != p.twilio || c.twilio && c.version != p.version {
		c.send()
	}
	return &c
}

func (c *phoneConfig) send() {
	c.sent = ""
	if c.twilio {
		c.sent = c.token
	}
}

func (w *phoneWalker) mutate(r *rand.Rand, c *phoneConfig) {
	b := func(v bool) *bool { return &v }
	switch r.IntN(5) {
	case 0:
		c.twilio = !c.twilio
	case 1:
		c.disabled = pick(r, nil, b(true), b(false))
	case 2:
		c.methods = pick(r, []string{"text"}, []string{"voice"}, []string{"voice", "text"})
	case 3:
		c.mssid = !c.mssid
	case 4:
		// A new token; sent only with a new version.
		c.token = fmt.Sprintf("token-%d", r.IntN(1000))
		if maybe(r, 2) {
			c.version++
		}
	}
}

func (c *phoneConfig) Address() string { return "tenant_phone_provider.walk" }

// ImportIgnore: an import cannot read the credentials' version (it sets 0
// for a Twilio provider).
func (c *phoneConfig) ImportIgnore() []string { return []string{"credentials_wo_version"} }

func (c *phoneConfig) HCL() string {
	var b strings.Builder
	methods := `"` + strings.Join(c.methods, `", "`) + `"`
	if c.twilio {
		sender := `default_from = "+15550001111"`
		if c.mssid {
			sender = `mssid = "MG0123"`
		}
		fmt.Fprintf(&b, "resource \"tenant_phone_provider\" \"walk\" {\n  name = \"twilio\"\n  configuration = {\n    sid = \"AC0123\"\n    %s\n    delivery_methods = [%s]\n  }\n", sender, methods)
		fmt.Fprintf(&b, "  credentials_wo = { auth_token = %q }\n  credentials_wo_version = %d\n", c.token, c.version)
	} else {
		fmt.Fprintf(&b, "resource \"tenant_phone_provider\" \"walk\" {\n  name = \"custom\"\n  configuration = { delivery_methods = [%s] }\n", methods)
	}
	if c.disabled != nil {
		fmt.Fprintf(&b, "  disabled = %t\n", *c.disabled)
	}
	b.WriteString("}\n")
	return b.String()
}

func (c *phoneConfig) Check(st emulator.State) error {
	if len(st.PhoneProviders) != 1 {
		return fmt.Errorf("the tenant holds %d phone providers, want 1", len(st.PhoneProviders))
	}
	got := decode(st.PhoneProviders[0])
	methods := slices.Sorted(slices.Values(c.methods))
	cfg := map[string]any{"delivery_methods": methods}
	name := "custom"
	if c.twilio {
		name, cfg["sid"] = "twilio", "AC0123"
		if c.mssid {
			cfg["mssid"] = "MG0123"
		} else {
			cfg["default_from"] = "+15550001111"
		}
	}
	want := map[string]any{
		"id": got["id"], "tenant": got["tenant"], "name": name, "channel": "phone", "disabled": c.disabled != nil && *c.disabled,
		"configuration": cfg, "created_at": got["created_at"], "updated_at": got["updated_at"],
	}
	if err := diff("the phone provider", got, want); err != nil {
		return err
	}
	if token := c.emu.PhoneCredentials(got["id"].(string))["auth_token"]; token != c.sent {
		return fmt.Errorf("the tenant holds the auth token %q, want %q", token, c.sent)
	}
	return nil
}

func (w *phoneWalker) Gone(st emulator.State) error {
	if n := len(st.PhoneProviders); n != 0 {
		return fmt.Errorf("%d phone providers left after destroy", n)
	}
	return nil
}
