// Package emulator is a local stand-in for the tenant Management API v2:
// real HTTP, real RS256 tokens, the API's shapes, status codes, limits and
// failure modes. It shares no code with the provider's client on purpose: it
// is a second, independent reading of the API.
package emulator

import (
	"bufio"
	"context"
	"crypto/rsa"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Options configure an emulator. The zero value is a usable emulator on a
// random loopback port with no rate limit, no entity cap and no faults.
type Options struct {
	// Listen is the loopback address ("127.0.0.1:0" when empty).
	Listen string
	// ClientID and ClientSecret are the default client's (global, every
	// scope); random when empty, unless StateFile holds them.
	ClientID     string
	ClientSecret string
	// Clients are more clients, each with its own scopes.
	Clients []Client
	// StateFile, when set, is read at Start (when it exists) and written
	// at Close: the tenant's objects and the default client's credentials,
	// so that a stopped emulator comes back as it was.
	StateFile string
	// TokenLifetime of issued access tokens (default 86400s).
	TokenLifetime time.Duration
	// RateLimitRPS and RateLimitBurst set the token bucket; 0 RPS is no
	// limit (without RateLimitWindow).
	RateLimitRPS   float64
	RateLimitBurst int
	// RateLimitWindow, when set, replaces the token bucket by a fixed
	// window: RateLimitBurst requests (or RateLimitRPS × the window when
	// RateLimitBurst is 0) per window of this length, all given back at the
	// window's end, which X-RateLimit-Reset shows. A window starts with the
	// first request after the previous one ended.
	RateLimitWindow time.Duration
	// ClockSkew shifts the emulator's clock as its answers show it: the Date
	// header and X-RateLimit-Reset. The limit itself runs on real time.
	ClockSkew time.Duration
	// OmitRateLimitHeaders names rate-limit headers to leave out of every
	// answer ("X-RateLimit-Limit", "X-RateLimit-Remaining",
	// "X-RateLimit-Reset", any case), or "all" for the three.
	OmitRateLimitHeaders []string
	// EntityCap limits objects per type (0: no cap).
	EntityCap int
	Faults    Faults
	// BuildDelay is how long an action's build takes (default 100ms): pending
	// for its first quarter, building for the rest, then built. A build that
	// fails takes one and a half times as long, through retrying, to failed.
	BuildDelay time.Duration
	// TLS serves HTTPS with a self-signed certificate written to CAFile.
	TLS bool
	// Demo seeds a deployed custom-token-exchange action, a role and a phone provider.
	Demo bool
	// TenantName is the tenant's name as phone providers show it.
	TenantName string
	// FieldsEverywhere applies fields and include_fields on every list and
	// read route, also those whose specification names neither.
	FieldsEverywhere bool
	// Log receives the emulator's log: one line for each request it does
	// not serve, what the actions' code prints, the npm installs of their
	// dependencies, and one line for each token exchange (nil: no log).
	Log io.Writer
	// Assume answers what the reference leaves open, one setting each.
	Assume Assumptions
	// Node is the Node.js program that runs actions' code ("node" on PATH
	// when empty), and Npm the npm that installs their dependencies ("npm"
	// on PATH when empty). Without them the emulator serves everything
	// else, and an exchange says what is missing.
	Node string
	Npm  string
	// NpmRegistry is the registry npm installs from (npm's own setting
	// when empty).
	NpmRegistry string
	// PackageCache is where installed dependency sets are kept, one folder
	// per set, shared with other emulators (default: the user's cache
	// folder, tenant-emulator/packages).
	PackageCache string
	// ActionTimeout is how long one execution of an action may take
	// (default 20s).
	ActionTimeout time.Duration
	// ExchangeThrottle is the Suspicious IP Throttling of token exchanges.
	ExchangeThrottle ExchangeThrottle
}

// Faults are injected failures, all off at zero and reproducible by Seed.
type Faults struct {
	// ErrorRate is the share of API requests answered 5xx before anything is done.
	ErrorRate float64 `json:"error_rate"`
	// DropRate is the share of writes applied and then left unanswered (the
	// connection is closed).
	DropRate float64 `json:"drop_rate"`
	// LatencyMS delays every API answer.
	LatencyMS int   `json:"latency_ms"`
	Seed      int64 `json:"seed"`
	// Routes fails every request to a route ("DELETE /api/v2/roles/{id}/permissions")
	// with the given status, before anything is done.
	Routes map[string]int `json:"routes,omitempty"`
	// FailingPackages makes every action build started while it is set
	// fail, through the usual pending, building, retrying, failed, when a
	// dependency is one of these: "name@version" for that exact version
	// string, or "name" for every version ("auth0@2.42.0", "@acme/sdk").
	FailingPackages []string `json:"failing_packages,omitempty"`
}

// check reports a fault setting the emulator cannot apply.
func (f Faults) check() error {
	if f.ErrorRate < 0 || f.ErrorRate > 1 || f.DropRate < 0 || f.DropRate > 1 || f.LatencyMS < 0 {
		return errors.New("faults: want {error_rate 0..1, drop_rate 0..1, latency_ms >= 0, seed, routes, failing_packages}")
	}
	for _, p := range f.FailingPackages {
		if _, _, err := splitPackage(p); err != nil {
			return fmt.Errorf("faults: failing_packages: %v; want \"name@version\" or \"name\"", err)
		}
	}
	return nil
}

// Client is an application allowed to get tokens: a client of the tenant
// (in /clients) with a grant for the Management API holding Scopes.
type Client struct {
	ID     string
	Secret string
	Scopes []string
	// Global clients may create token exchange profiles.
	Global bool
	// TokenLifetime overrides Options.TokenLifetime when set.
	TokenLifetime time.Duration
}

// Server is a running emulator.
type Server struct {
	opts     Options
	srv      *http.Server
	listener net.Listener
	domain   string // scheme://host:port
	host     string // host:port
	caFile   string
	key      *rsa.PrivateKey
	kid      string

	mu      sync.Mutex
	st      *store
	start   *store
	cap     int
	faults  Faults
	rng     *rand.Rand
	limiter limiter
	omit    map[string]bool
	stats   Stats
	demo    DemoIDs
	log     *log.Logger // nil: no log

	certOnce    sync.Once
	cert        string
	packages    *packageInstaller
	runtime     *nodeRuntime
	actionCache map[string]map[string]cacheRecord // by trigger id, under mu
	attempts    map[string]*attemptBucket         // by IP, under mu
	apiRoutes   []string                          // set before it serves, read only after
}

// DemoIDs are the objects --demo seeds.
type DemoIDs struct {
	ActionID        string `json:"demo_action_id,omitempty"`
	RoleID          string `json:"demo_role_id,omitempty"`
	PhoneProviderID string `json:"demo_phone_provider_id,omitempty"`
}

// Start listens on a loopback address and serves until Close.
func Start(opts Options) (*Server, error) {
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("--listen %q: %v", opts.Listen, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--listen %q: the emulator listens on loopback addresses only (127.0.0.0/8, ::1, localhost)", opts.Listen)
	}
	if opts.TokenLifetime <= 0 {
		opts.TokenLifetime = 86400 * time.Second
	}
	if opts.BuildDelay <= 0 {
		opts.BuildDelay = 100 * time.Millisecond
	}
	if opts.ActionTimeout <= 0 {
		opts.ActionTimeout = defaultActionTimeout
	}
	var saved *savedState
	if opts.StateFile != "" {
		if saved, err = loadState(opts.StateFile); err != nil {
			return nil, err
		}
	}
	if saved != nil && opts.ClientID == "" && opts.ClientSecret == "" {
		opts.ClientID, opts.ClientSecret = saved.ClientID, saved.ClientSecret
	}
	if opts.ClientID == "" {
		opts.ClientID = randomString(32)
	}
	if opts.ClientSecret == "" {
		opts.ClientSecret = randomString(64)
	}
	if opts.TenantName == "" {
		opts.TenantName = "emulated-tenant"
	}
	if err := opts.Faults.check(); err != nil {
		return nil, err
	}
	if err := opts.Assume.normalize(); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, listener: l, host: l.Addr().String(), cap: opts.EntityCap}
	s.domain = "http://" + s.host
	if s.key, s.kid, err = newSigningKey(); err != nil {
		l.Close()
		return nil, err
	}
	taken := map[string]bool{opts.ClientID: true}
	for _, c := range opts.Clients {
		if c.ID == "" || c.Secret == "" {
			l.Close()
			return nil, fmt.Errorf("a client needs an id and a secret")
		}
		if taken[c.ID] {
			l.Close()
			return nil, fmt.Errorf("client id %q is given twice (the default client's id, or another client's)", c.ID)
		}
		taken[c.ID] = true
	}
	s.setFaults(opts.Faults)
	s.limiter = newLimiter(opts.RateLimitRPS, opts.RateLimitBurst, opts.RateLimitWindow)
	if s.omit, err = omitted(opts.OmitRateLimitHeaders); err != nil {
		l.Close()
		return nil, err
	}
	s.stats = newStats()
	if opts.Log != nil {
		s.log = log.New(opts.Log, "tenant-emulator: ", log.LstdFlags)
	}
	s.packages = installerFor(opts.PackageCache, opts.Npm, opts.NpmRegistry)
	s.runtime = newNodeRuntime(opts.Node, opts.ActionTimeout, s.logLine)
	s.st = newStore()
	if saved != nil {
		s.st, s.demo = saved.Store, saved.Demo
		s.keepSystemAPIs(s.st)
	}
	s.seedSystem()
	if saved != nil {
		s.moveGrants(saved.oldAudience, s.Audience())
	}
	s.seedClient(Client{ID: opts.ClientID, Secret: opts.ClientSecret, Scopes: AllScopes(), Global: true}, "Default App")
	for _, c := range opts.Clients {
		s.seedClient(c, c.ID)
	}
	if opts.Demo && saved == nil {
		s.seedDemo()
	}
	s.start = s.st.clone()

	s.srv = &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second}
	if opts.TLS {
		cert, caFile, err := selfSigned()
		if err != nil {
			l.Close()
			return nil, err
		}
		s.caFile = caFile
		s.domain = "https://" + s.host
		l = tls.NewListener(l, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	go func() { _ = s.srv.Serve(l) }()
	return s, nil
}

// Close stops the server, writes Options.StateFile when set, and, with
// TLS, removes the certificate's folder.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	err = errors.Join(err, s.runtime.close())
	if s.opts.StateFile != "" {
		err = errors.Join(err, s.saveState(s.opts.StateFile))
	}
	if s.caFile != "" {
		err = errors.Join(err, os.RemoveAll(filepath.Dir(s.caFile)))
	}
	return err
}

// Domain is what goes into the provider's domain, e.g. http://127.0.0.1:8787.
func (s *Server) Domain() string { return s.domain }

// BaseURL is the Management API root.
func (s *Server) BaseURL() string { return s.domain + "/api/v2" }

// Audience is the identifier of the system Management API.
func (s *Server) Audience() string { return "https://" + s.host + "/api/v2/" }

// ClientID and ClientSecret are the default (global, every scope) client's.
func (s *Server) ClientID() string     { return s.opts.ClientID }
func (s *Server) ClientSecret() string { return s.opts.ClientSecret }

// CAFile is the PEM certificate to trust with TLS ("" without).
func (s *Server) CAFile() string { return s.caFile }

// Demo returns the ids seeded by Options.Demo.
func (s *Server) Demo() DemoIDs { return s.demo }

// AddClient registers another application (a non-global one, or one with
// fewer scopes), or gives one it has these settings.
func (s *Server) AddClient(c Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seedClient(c, c.ID)
}

// SetEntityCap sets the per-type object cap (0: none).
func (s *Server) SetEntityCap(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cap = n
}

// SetFaults replaces the fault settings.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setFaults(f)
}

func (s *Server) setFaults(f Faults) {
	f.FailingPackages = slices.Clone(f.FailingPackages)
	f.Routes = maps.Clone(f.Routes)
	s.faults = f
	s.rng = rand.New(rand.NewPCG(uint64(f.Seed), uint64(f.Seed)^0x9e3779b97f4a7c15))
}

// SetRateLimit replaces the rate limit by a token bucket (0 rps: no limit).
func (s *Server) SetRateLimit(rps float64, burst int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limiter = newLimiter(rps, burst, 0)
}

// Outbox returns every test notification sent so far.
func (s *Server) Outbox() []OutboxMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]OutboxMessage(nil), s.st.Outbox...)
}

// Stats is a copy of the request counters.
type Stats struct {
	Total    int64            `json:"requests_total"`
	ByRoute  map[string]int64 `json:"by_route"`
	ByStatus map[string]int64 `json:"by_status"`
}

func newStats() Stats { return Stats{ByRoute: map[string]int64{}, ByStatus: map[string]int64{}} }

// APIRoutes are the Management API routes it serves, as registered
// ("GET /api/v2/roles/{id}"), so that what documents them can be checked
// against them.
func (s *Server) APIRoutes() []string { return slices.Clone(s.apiRoutes) }

// Stats returns a copy of the request counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := newStats()
	out.Total = s.stats.Total
	for k, v := range s.stats.ByRoute {
		out.ByRoute[k] = v
	}
	for k, v := range s.stats.ByStatus {
		out.ByStatus[k] = v
	}
	return out
}

// ResetStats zeroes the request counters.
func (s *Server) ResetStats() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats = newStats()
}

// Reset returns the store to its starting state and zeroes the counters.
func (s *Server) Reset() {
	s.mu.Lock()
	s.st = s.start.clone()
	s.actionCache, s.attempts = nil, nil
	s.retireWorkers()
	s.mu.Unlock()
	s.ResetStats()
}

// handler routes the API, the token endpoint and the admin endpoints.
//
// Nothing is ever redirected or cleaned into another route: a path with an
// empty, "." or ".." segment is answered 404 as it is. Under /api/v2 the
// token is checked before anything is routed, as the API answers 401 to
// any request without a valid token.
func (s *Server) handler() http.Handler {
	api := http.NewServeMux()
	s.routes(api)
	admin := http.NewServeMux()
	s.adminRoutes(admin)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", s.clock(time.Now()).Format(http.TimeFormat))
		isAPI := under(r, "/api/v2")
		if !isAPI && under(r, "/__emulator") {
			s.serveAdmin(w, r, admin)
			return
		}
		pattern := ""
		if canonicalPath(r) {
			_, pattern = api.Handler(r)
		}
		label := pattern
		if pattern == "" {
			label = r.Method + " (unmatched)"
		}
		rec := &recorder{ResponseWriter: w}
		s.serveAPI(rec, r, isAPI, api, pattern)
		if pattern == "" {
			s.notServed(r, rec.status)
		}
		s.mu.Lock()
		s.stats.Total++
		s.stats.ByRoute[label]++
		status := "dropped"
		if rec.status != 0 {
			status = strconv.Itoa(rec.status)
		}
		s.stats.ByStatus[status]++
		s.mu.Unlock()
	})
}

// serveAPI applies latency, the rate limit, faults and, under /api/v2,
// authentication before the route ("" pattern: none matched). A matched
// path is canonical, so the mux neither cleans nor redirects it.
func (s *Server) serveAPI(w *recorder, r *http.Request, isAPI bool, api *http.ServeMux, pattern string) {
	s.mu.Lock()
	f := s.faults
	routeStatus := 0
	if pattern != "" {
		routeStatus = f.Routes[pattern]
	}
	fail := f.ErrorRate > 0 && s.rng.Float64() < f.ErrorRate
	failStatus := []int{500, 502, 503}[s.rng.IntN(3)]
	drop := f.DropRate > 0 && s.rng.Float64() < f.DropRate
	limit, remaining, reset, allowed := s.limiter.take(time.Now())
	s.mu.Unlock()

	if f.LatencyMS > 0 {
		time.Sleep(time.Duration(f.LatencyMS) * time.Millisecond)
	}
	if limit > 0 {
		s.rateLimitHeaders(w.Header(), limit, remaining, reset)
	}
	if !allowed {
		writeErr(w, newErr(429, "Global limit has been reached", "too_many_requests"))
		return
	}
	if routeStatus != 0 {
		writeErr(w, newErr(routeStatus, "Injected fault for "+pattern+".", ""))
		return
	}
	if isAPI && fail {
		writeErr(w, newErr(failStatus, "Injected fault: the server failed before handling the request.", ""))
		return
	}
	if isAPI {
		c, e := s.authenticate(r)
		if e != nil {
			writeErr(w, e)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), callerKey{}, c))
	}
	if pattern == "" {
		// Assumption (no recording or reference shows the API's answer to
		// a route it does not have): the API's error shape with the reason
		// phrase as message, as recorded for 404s that name nothing more.
		writeErr(w, newErr(404, "Not Found", ""))
		return
	}
	if isAPI && drop && r.Method != http.MethodGet {
		// Apply the write, then close the connection with no answer.
		w.discard = true
		api.ServeHTTP(w, r)
		w.status = 0
		if hj, ok := w.ResponseWriter.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	api.ServeHTTP(w, r)
}

// notServed logs a request that matched none of the emulator's routes, so
// that a user sees the emulator, not their configuration, is the limit.
func (s *Server) notServed(r *http.Request, status int) {
	if s.log == nil {
		return
	}
	answer := "dropped"
	if status != 0 {
		answer = strconv.Itoa(status)
	}
	s.log.Printf("not served: %s %s (answered %s): the emulator has no such route; see its guide for the routes it serves", r.Method, r.URL.EscapedPath(), answer)
}

// logf logs what the emulator did not do of a request it served, such as
// running an action's code.
func (s *Server) logf(r *http.Request, format string, args ...any) {
	if s.log != nil {
		s.log.Printf("%s %s: %s", r.Method, r.URL.EscapedPath(), fmt.Sprintf(format, args...))
	}
}

// recorder remembers the status; with discard it swallows the answer.
type recorder struct {
	http.ResponseWriter
	status  int
	discard bool
}

func (r *recorder) WriteHeader(code int) {
	r.status = code
	if !r.discard {
		r.ResponseWriter.WriteHeader(code)
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = 200
	}
	if r.discard {
		return len(b), nil
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if hj, ok := r.ResponseWriter.(http.Hijacker); ok {
		return hj.Hijack()
	}
	return nil, nil, errors.New("not hijackable")
}

func (s *Server) adminRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /__emulator/stats", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, s.Stats()) })
	mux.HandleFunc("POST /__emulator/stats/reset", func(w http.ResponseWriter, r *http.Request) { s.ResetStats(); noContent(w) })
	mux.HandleFunc("POST /__emulator/reset", func(w http.ResponseWriter, r *http.Request) { s.Reset(); noContent(w) })
	mux.HandleFunc("GET /__emulator/outbox", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, s.Outbox()) })
	// Over HTTP the state shows no secret: anything on the machine can ask,
	// an action's code included.
	mux.HandleFunc("GET /__emulator/state", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, s.state(false)) })
	mux.HandleFunc("PUT /__emulator/faults", func(w http.ResponseWriter, r *http.Request) {
		var f Faults
		if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
			writeErr(w, newErr(400, "faults: "+err.Error(), ""))
			return
		}
		if err := f.check(); err != nil {
			writeErr(w, newErr(400, err.Error(), ""))
			return
		}
		s.SetFaults(f)
		writeJSON(w, 200, f)
	})
}

// State is every object, as the API shows it.
type State struct {
	TokenExchangeProfiles []json.RawMessage `json:"token_exchange_profiles"`
	ResourceServers       []json.RawMessage `json:"resource_servers"`
	Roles                 []json.RawMessage `json:"roles"`
	Actions               []json.RawMessage `json:"actions"`
	PhoneProviders        []json.RawMessage `json:"phone_providers"`
	Users                 []json.RawMessage `json:"users"`
	// TriggerBindings holds each trigger that has bindings: its bindings in
	// execution order.
	TriggerBindings map[string][]json.RawMessage `json:"trigger_bindings"`
	// Clients show their secrets in State, not at GET /__emulator/state.
	Clients      []json.RawMessage `json:"clients"`
	ClientGrants []json.RawMessage `json:"client_grants"`
}

// State returns a snapshot of the store, secrets included: the client
// secrets and the HS256 APIs' signing secrets.
func (s *Server) State() State { return s.state(true) }

// state is a snapshot of the store, with or without the secrets.
func (s *Server) state(secrets bool) State {
	s.mu.Lock()
	defer s.mu.Unlock()
	// An empty collection is [], never null.
	out := State{
		TokenExchangeProfiles: []json.RawMessage{}, ResourceServers: []json.RawMessage{}, Roles: []json.RawMessage{},
		Actions: []json.RawMessage{}, PhoneProviders: []json.RawMessage{}, Users: []json.RawMessage{},
		TriggerBindings: map[string][]json.RawMessage{}, Clients: []json.RawMessage{}, ClientGrants: []json.RawMessage{},
	}
	for _, p := range sortedBySeq(s.st.Profiles, func(p *profile) int64 { return p.Seq }) {
		out.TokenExchangeProfiles = append(out.TokenExchangeProfiles, mustJSON(p))
	}
	for _, rs := range sortedBySeq(s.st.ResourceServers, func(r *resourceServer) int64 { return r.Seq }) {
		if !secrets && rs.SigningSecret != nil {
			c := *rs
			c.SigningSecret = nil
			rs = &c
		}
		out.ResourceServers = append(out.ResourceServers, mustJSON(rs))
	}
	for _, ro := range sortedBySeq(s.st.Roles, func(r *role) int64 { return r.Seq }) {
		out.Roles = append(out.Roles, mustJSON(append(roleView(ro), ordered{{"permissions", s.permissionsOf(ro.ID)}}...)))
	}
	now := time.Now()
	for _, a := range sortedBySeq(s.st.Actions, func(a *action) int64 { return a.Seq }) {
		out.Actions = append(out.Actions, mustJSON(a.view(now)))
	}
	for _, p := range s.st.PhoneProviders { // a tenant has at most one
		out.PhoneProviders = append(out.PhoneProviders, mustJSON(p))
	}
	for _, u := range sortedBySeq(s.st.Users, func(u *user) int64 { return u.Seq }) {
		out.Users = append(out.Users, mustJSON(append(u.view(), ordered{{"roles", s.rolesOf(u.UserID)}}...)))
	}
	for t, list := range s.st.Bindings {
		for _, b := range list {
			out.TriggerBindings[t] = append(out.TriggerBindings[t], mustJSON(s.bindingView(t, b, now)))
		}
	}
	for _, c := range sortedBySeq(s.st.Clients, func(c *clientRec) int64 { return c.Seq }) {
		out.Clients = append(out.Clients, mustJSON(c.view(secrets)))
	}
	for _, g := range sortedBySeq(s.st.Grants, func(g *grant) int64 { return g.Seq }) {
		out.ClientGrants = append(out.ClientGrants, mustJSON(g))
	}
	return out
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
