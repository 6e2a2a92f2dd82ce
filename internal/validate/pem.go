package validate

import (
	"context"
	"encoding/pem"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// publicPEMTypes are the PEM blocks that hold what token encryption takes: a
// public key or a certificate.
var publicPEMTypes = []string{"PUBLIC KEY", "RSA PUBLIC KEY", "CERTIFICATE"}

// PublicKeyPEM accepts PEM text whose blocks are all public keys or
// certificates. Its diagnostics name the block types it found, never the
// value: the usual mistake it catches is a private key pasted in its place.
func PublicKeyPEM() validator.String { return publicKeyPEM{} }

type publicKeyPEM struct{}

func (publicKeyPEM) Description(context.Context) string {
	return "a PEM-encoded public key (PUBLIC KEY, RSA PUBLIC KEY) or certificate (CERTIFICATE)"
}

func (v publicKeyPEM) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v publicKeyPEM) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	rest := []byte(req.ConfigValue.ValueString())
	var found []string
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		found = append(found, block.Type)
		if strings.Contains(block.Type, "PRIVATE KEY") {
			resp.Diagnostics.AddAttributeError(req.Path, "Private key in place of a public key", fmt.Sprintf(
				"Attribute %s holds a %q PEM block. It takes %s; a private key must never leave its owner. The value is not shown. "+
					"Put the public key or certificate there, and treat the private key as exposed if it was shared.",
				req.Path, block.Type, v.Description(ctx)))
			return
		}
	}
	if len(found) == 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid PEM", fmt.Sprintf(
			"Attribute %s holds no PEM block. It takes %s, starting with a line such as -----BEGIN PUBLIC KEY-----. The value is not shown.",
			req.Path, v.Description(ctx)))
		return
	}
	for _, t := range found {
		ok := false
		for _, want := range publicPEMTypes {
			ok = ok || t == want
		}
		if !ok {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid PEM", fmt.Sprintf(
				"Attribute %s holds a %q PEM block. It takes %s. The value is not shown.", req.Path, t, v.Description(ctx)))
			return
		}
	}
}
