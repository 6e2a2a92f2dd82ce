package mgmt_test

import (
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestClient_caPEM: a tenant whose certificate a private CA signed is
// trusted through Config.CAPEM, on every platform (SSL_CERT_FILE is not
// read everywhere); without it the certificate is refused, and a PEM that
// holds no certificate is an error before any request.
func TestClient_caPEM(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/oauth/token":
			fmt.Fprint(w, `{"access_token":"tok","token_type":"Bearer","expires_in":86400}`)
		case "/api/v2/roles/rol_1":
			fmt.Fprint(w, `{"id":"rol_1","name":"r"}`)
		default:
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	client := func(pem []byte) (*mgmt.Client, error) {
		return mgmt.New(mgmt.Config{Domain: srv.URL, ClientID: "id", ClientSecret: "secret", CAPEM: pem, MaxRetries: -1})
	}
	c, err := client(ca)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := c.GetRole(context.Background(), "rol_1"); err != nil || r.ID != "rol_1" {
		t.Fatalf("with the CA: %v %v", r, err)
	}
	c, err = client(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetRole(context.Background(), "rol_1"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("without the CA: %v, want a certificate error", err)
	}
	if _, err := client([]byte("not a certificate")); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("a PEM without a certificate: %v", err)
	}
}

// TestClient_untrustedCertificateNotRetried: a certificate the client does
// not trust is not transient: one attempt, with the token request or the
// API request, and the error says to set ca_file.
func TestClient_untrustedCertificateNotRetried(t *testing.T) {
	for _, form := range []string{"client credentials", "api_token"} {
		t.Run(form, func(t *testing.T) {
			var conns atomic.Int32
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				t.Errorf("a request reached the server: %s %s", r.Method, r.URL.Path)
			}))
			srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					conns.Add(1)
				}
			}
			srv.Config.ErrorLog = log.New(io.Discard, "", 0)
			srv.StartTLS()
			defer srv.Close()
			cfg := mgmt.Config{Domain: srv.URL, ClientID: "id", ClientSecret: "secret", MinBackoff: time.Millisecond}
			if form == "api_token" {
				cfg = mgmt.Config{Domain: srv.URL, APIToken: "tok", MinBackoff: time.Millisecond}
			}
			c, err := mgmt.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetRole(context.Background(), "rol_1")
			if err == nil || !strings.Contains(err.Error(), "certificate") || !strings.Contains(err.Error(), "ca_file (TENANT_CA_FILE)") {
				t.Fatalf("err = %v, want the certificate error and what to set", err)
			}
			if n := conns.Load(); n != 1 {
				t.Fatalf("%d attempts, want 1", n)
			}
		})
	}
}
