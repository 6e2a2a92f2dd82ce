package mgmt_test

import (
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestParseDomain(t *testing.T) {
	for _, tc := range []struct{ in, scheme, host, err string }{
		{in: "acme.eu.example.com", scheme: "https", host: "acme.eu.example.com"},
		{in: "acme.example.com:8443", scheme: "https", host: "acme.example.com:8443"},
		{in: "https://Acme.example.com/", scheme: "https", host: "acme.example.com"},
		{in: "http://127.0.0.1:8787", scheme: "http", host: "127.0.0.1:8787"},
		{in: "http://127.9.9.9", scheme: "http", host: "127.9.9.9"},
		{in: "http://[::1]:80", scheme: "http", host: "[::1]:80"},
		{in: "http://localhost:1", scheme: "http", host: "localhost:1"},
		{in: "http://tenant.example.com", err: "plain http"},
		{in: "http://10.0.0.1", err: "plain http"},
		{in: "ftp://x.example.com", err: "scheme"},
		{in: "https://x.example.com/api/v2", err: "without user, path or query"},
		{in: "https://u:p@x.example.com", err: "without user"},
		{in: "", err: "empty"},
		{in: "https://", err: "no host"},
		{in: "x.example.com:99999", err: "port"},
	} {
		ep, err := mgmt.ParseDomain(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || ep.Scheme != tc.scheme || ep.Host != tc.host {
			t.Errorf("%q: got %+v %v", tc.in, ep, err)
		}
	}
	ep, _ := mgmt.ParseDomain("http://127.0.0.1:8787")
	if ep.DefaultAudience() != "https://127.0.0.1:8787/api/v2/" || ep.BaseURL() != "http://127.0.0.1:8787/api/v2" {
		t.Errorf("%s %s", ep.DefaultAudience(), ep.BaseURL())
	}
}

func FuzzParseDomain(f *testing.F) {
	for _, s := range []string{"a.example.com", "http://127.0.0.1:1", "https://[::1]/", "http://x", "https://a:b@c/d?e#f", "%", "::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ep, err := mgmt.ParseDomain(s)
		if err != nil {
			return
		}
		if ep.Scheme == "http" && !mgmt.IsLoopbackHost(strings.Trim(strings.Split(strings.TrimSuffix(ep.Host, "]"), "]:")[0], "[")) {
			if h := ep.Host; !strings.HasPrefix(h, "127.") && !strings.HasPrefix(h, "localhost") && !strings.HasPrefix(h, "[::1]") {
				t.Fatalf("plain http accepted for %q", s)
			}
		}
		if ep.Host == "" {
			t.Fatalf("empty host for %q", s)
		}
	})
}

func FuzzParseAPIError(f *testing.F) {
	for _, s := range []string{`{"statusCode":400,"error":"Bad Request","message":"x","errorCode":"y"}`, `{"code":404,"message":"m"}`, `<html>`, ``, `{"message":`} {
		f.Add(400, s)
	}
	f.Fuzz(func(t *testing.T, status int, body string) {
		e := mgmt.ParseAPIError("GET", "/x", status, []byte(body))
		if e.StatusCode != status || e.Message == "" || e.Error() == "" {
			t.Fatalf("bad error %+v", e)
		}
	})
}
