package emulator

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// raw sends a request exactly as written (no client-side path cleaning)
// and returns the answer.
func (h *harness) raw(method, target string, header map[string]string) reply {
	h.t.Helper()
	conn, err := net.Dial("tcp", h.s.t.Host)
	if err != nil {
		h.t.Fatal(err)
	}
	defer conn.Close()
	var b strings.Builder
	b.WriteString(method + " " + target + " HTTP/1.1\r\n")
	if _, ok := header["Host"]; !ok {
		b.WriteString("Host: " + h.s.t.Host + "\r\n")
	}
	for k, v := range header {
		b.WriteString(k + ": " + v + "\r\n")
	}
	b.WriteString("Content-Length: 0\r\nConnection: close\r\n\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		h.t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(body)}
}

func TestRouting_authenticateFirstNeverRedirect(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	bearer := map[string]string{"Authorization": "Bearer " + tok}
	const notFound = `{"statusCode":404,"error":"Not Found","message":"Not Found"}` + "\n"
	for _, target := range []string{
		"/api/v2/nope",
		"/api/v2",
		"/api/v2/",
		"/api/v2//roles",
		"/api/v2/roles/",
		"/api/v2/./roles",
		"/api/v2/roles/../resource-servers",
		"/api/v2/roles/%2e%2e/resource-servers",
		"/api/v2/roles/%2E%2E/resource-servers",
		"/api/v2/roles/.%2e/resource-servers",
		"/api/v2/resource-servers/%2E",
		"/api/v2/resource-servers/%2e?include_totals=true",
		"/api/v2/../oauth/token",
		"/api/v2/../__emulator/state",
		"/api%2Fv2/roles",
		"/__emulator/../api/v2/roles",
		"//api/v2/roles",
	} {
		t.Run(target, func(t *testing.T) {
			for _, auth := range []map[string]string{nil, {"Authorization": "Bearer garbage"}} {
				if r := h.raw("GET", target, auth); r.status != 401 || !strings.HasPrefix(r.body, `{"statusCode":401,"error":"Unauthorized","message":"`) {
					t.Fatalf("without a valid token: %d %s", r.status, r.body)
				}
			}
			if r := h.raw("GET", target, bearer); r.status != 404 || r.body != notFound || r.header.Get("Location") != "" {
				t.Fatalf("with a token: %d %v %s", r.status, r.header, r.body)
			}
		})
	}
	// A route that exists with another method is no route either.
	h.expect(h.raw("PUT", "/api/v2/roles", nil), 401)
	h.expect(h.raw("PUT", "/api/v2/roles", bearer), 404, notFound)
	// The list route is not reached through a dot segment.
	h.expect(h.raw("GET", "/api/v2/resource-servers", bearer), 200, "Auth0 Management API")
	// Outside the API: 404 in the same shape, never a redirect.
	for _, target := range []string{"/nope", "//oauth/token", "/.well-known/../.well-known/jwks.json", "/.well-known//jwks.json", "/__emulator//state", "/__emulator/./state", "/__emulator/nope"} {
		if r := h.raw("GET", target, nil); r.status != 404 || r.body != notFound {
			t.Errorf("%s: %d %s", target, r.status, r.body)
		}
	}
	h.expect(h.raw("GET", "/.well-known/jwks.json", nil), 200, `"keys"`)
	h.expect(h.call("", "GET", "/__emulator/stats", nil), 200, `"GET (unmatched)":`, `"401":`, `"404":`)
	for status := range h.s.Stats().ByStatus {
		if status[0] == '3' {
			t.Fatalf("a redirect was answered: %v", h.s.Stats().ByStatus)
		}
	}
}

func TestAdmin_refusesBrowsersAndForeignHosts(t *testing.T) {
	h := start(t, Options{Demo: true})
	h.expect(h.call(h.admin(), "POST", "/api/v2/roles", `{"name":"kept"}`), 200)
	_, port, _ := net.SplitHostPort(h.s.t.Host)
	for _, host := range []string{"127.0.0.1:" + port, "127.0.0.1", "127.9.8.7:" + port, "localhost:" + port, "LOCALHOST", "[::1]:" + port, "[::1]"} {
		if r := h.raw("GET", "/__emulator/stats", map[string]string{"Host": host}); r.status != 200 {
			t.Errorf("Host %s: %d %s", host, r.status, r.body)
		}
	}
	for _, host := range []string{"evil.example:" + port, "evil.example", "127.0.0.1:1", "localhost:1", "10.0.0.1:" + port, "127.0.0.1.nip.io:" + port, "[::2]:" + port} {
		r := h.raw("POST", "/__emulator/reset", map[string]string{"Host": host})
		h.expect(r, 403, `"statusCode":403`, "loopback host")
	}
	for _, c := range []struct {
		method, path string
		header       map[string]string
		want         string
	}{
		{"GET", "/__emulator/state", map[string]string{"Origin": "http://127.0.0.1:" + port}, "Origin"},
		{"POST", "/__emulator/reset", map[string]string{"Origin": "null"}, "Origin"},
		{"POST", "/__emulator/reset", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "Content-Type"},
		{"POST", "/__emulator/stats/reset", map[string]string{"Content-Type": "text/plain"}, "Content-Type"},
		{"PUT", "/__emulator/faults", map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, "Content-Type"},
		{"POST", "/__emulator/reset", map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, "Origin"},
	} {
		h.expect(h.raw(c.method, c.path, c.header), 403, `{"statusCode":403,"error":"Forbidden","message":"The emulator's admin endpoints`, c.want)
	}
	// The refused resets did nothing.
	h.expect(h.call("", "GET", "/__emulator/state", nil), 200, `"name":"kept"`)
	h.expect(h.call("", "GET", "/__emulator/stats", nil), 200, `"requests_total":2`)
	// Local tools: no Content-Type, or JSON.
	h.expect(h.raw("POST", "/__emulator/stats/reset", nil), 204)
	h.expect(h.call("", "GET", "/__emulator/stats", nil), 200, `"requests_total":0`)
	h.expect(h.raw("POST", "/__emulator/reset", map[string]string{"Content-Type": "application/json; charset=utf-8"}), 204)
	if r := h.call("", "GET", "/__emulator/state", nil); strings.Contains(r.body, `"name":"kept"`) {
		t.Fatalf("reset did not reset: %s", r.body)
	}
	h.expect(h.call("", "PUT", "/__emulator/faults", `{"latency_ms":0}`), 200)
}

func TestTLS_closeRemovesTheCertificate(t *testing.T) {
	s, err := Start(Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(s.CAFile())
	if _, err := os.Stat(s.CAFile()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s still exists after Close: %v", dir, err)
	}
}
