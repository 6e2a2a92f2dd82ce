package mgmt

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Endpoint is where a tenant answers: the scheme and host[:port] of its domain.
type Endpoint struct {
	Scheme string // "https", or "http" for loopback hosts only
	Host   string // host or host:port
}

// BaseURL is the Management API root, without a trailing slash.
func (e Endpoint) BaseURL() string { return e.Scheme + "://" + e.Host + "/api/v2" }

// TokenURL is the client-credentials token endpoint.
func (e Endpoint) TokenURL() string { return e.Scheme + "://" + e.Host + "/oauth/token" }

// DefaultAudience is the identifier of the tenant's Management API, which is
// always written with https and a trailing slash.
func (e Endpoint) DefaultAudience() string { return "https://" + e.Host + "/api/v2/" }

// ParseDomain accepts "host", "host:port", "https://host[:port][/]" and, for
// loopback hosts only, "http://host[:port][/]". Plain HTTP to any other host
// would send credentials in the clear, so it is refused.
func ParseDomain(s string) (Endpoint, error) {
	raw := strings.TrimSpace(s)
	if raw == "" {
		return Endpoint{}, fmt.Errorf("the domain is empty")
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Endpoint{}, fmt.Errorf("%q is not a host, host:port or https URL: %v", s, err)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return Endpoint{}, fmt.Errorf("%q uses the scheme %q; use https:// (or http:// for a loopback emulator)", s, u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return Endpoint{}, fmt.Errorf("%q has no host", s)
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return Endpoint{}, fmt.Errorf("%q must be only a host, host:port or scheme://host[:port], without user, path or query", s)
	}
	if p := u.Port(); p != "" {
		if _, err := net.LookupPort("tcp", p); err != nil || strings.HasPrefix(p, "0") && p != "0" {
			return Endpoint{}, fmt.Errorf("%q has an invalid port %q", s, p)
		}
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return Endpoint{}, fmt.Errorf("%q uses plain http:// for a host that is not loopback; credentials would travel unencrypted. Use https:// (http:// is accepted only for 127.0.0.0/8, ::1 and localhost)", s)
	}
	return Endpoint{Scheme: u.Scheme, Host: strings.ToLower(u.Host)}, nil
}

// IsLoopbackHost reports whether host is localhost or a loopback IP.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
