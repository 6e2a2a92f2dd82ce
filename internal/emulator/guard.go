package emulator

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// under reports whether the request's path is prefix or below it, read
// decoded, escaped, or cleaned as a router would clean it: a path that
// could be taken for one under prefix is treated as one.
func under(r *http.Request, prefix string) bool {
	for _, p := range []string{r.URL.Path, r.URL.EscapedPath(), path.Clean("/" + r.URL.Path)} {
		if p == prefix || strings.HasPrefix(p, prefix+"/") {
			return true
		}
	}
	return false
}

// canonicalPath reports whether the escaped path has no empty segment
// ("//", or a trailing "/") and no "." or ".." segment, percent-encoded or
// not. Other paths match no route: they are answered 404 as they are,
// never cleaned into another route or redirected.
func canonicalPath(r *http.Request) bool {
	p := r.URL.EscapedPath()
	if !strings.HasPrefix(p, "/") {
		return false
	}
	if p == "/" {
		return true
	}
	for _, seg := range strings.Split(p[1:], "/") {
		dec, err := url.PathUnescape(seg)
		if seg == "" || err != nil || dec == "." || dec == ".." {
			return false
		}
	}
	return true
}

// serveAdmin serves /__emulator/ to local tools only (see adminGuard).
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request, admin *http.ServeMux) {
	if e := s.adminGuard(r); e != nil {
		wire.WriteErr(w, e)
		return
	}
	pattern := ""
	if canonicalPath(r) {
		_, pattern = admin.Handler(r)
	}
	if pattern == "" {
		wire.WriteErr(w, wire.NewErr(404, "Not Found", ""))
		return
	}
	admin.ServeHTTP(w, r)
}

// adminGuard keeps web pages away from the admin endpoints, which need no
// token: a page that rebinds its own host name to 127.0.0.1 still sends
// that name as Host, and a browser sends Origin with every cross-site
// request and with every POST or PUT.
//
// A request is refused with 403 when its Host is not a loopback name
// (127.0.0.0/8, [::1] or localhost, with the emulator's port or none), when
// it carries an Origin header, or when it is a write (POST, PUT, PATCH,
// DELETE) with a Content-Type other than application/json. A write with no
// Content-Type at all is allowed (curl -X POST sends none), since a browser
// cannot send one without an Origin header.
func (s *Server) adminGuard(r *http.Request) *wire.Error {
	if !s.loopbackHost(r.Host) {
		return wire.NewErr(403, "The emulator's admin endpoints answer only requests to a loopback host (127.0.0.0/8, [::1] or localhost); Host was "+wire.Quote(r.Host)+".", "")
	}
	if _, ok := r.Header["Origin"]; ok {
		return wire.NewErr(403, "The emulator's admin endpoints refuse requests with an Origin header: they are not for web pages.", "")
	}
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		if ct := r.Header.Values("Content-Type"); len(ct) > 0 {
			mt, _, err := mime.ParseMediaType(ct[0])
			if err != nil || mt != "application/json" || len(ct) > 1 {
				return wire.NewErr(403, "The emulator's admin endpoints accept writes with Content-Type application/json or none; got "+wire.Quote(strings.Join(ct, ", "))+".", "")
			}
		}
	}
	return nil
}

// loopbackHost reports whether a Host header names this emulator on a
// loopback address.
func (s *Server) loopbackHost(host string) bool {
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, ""
	}
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		name = name[1 : len(name)-1]
	}
	if _, own, _ := net.SplitHostPort(s.t.Host); port != "" && port != own {
		return false
	}
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}
