// Package emulator is a local stand-in for the tenant Management API v2:
// real HTTP, real RS256 tokens, the API's shapes, status codes, limits and
// failure modes. It shares no code with the provider's client on purpose: it
// is a second, independent reading of the API.
//
// This package is the server: it listens, applies the rate limit, the
// injected faults and the statistics, serves the admin endpoints, and wires
// the rooms that do the rest, each a package below it:
//
//   - mgmtapi: the Management API routes;
//   - oauth: the token endpoint, the custom token exchange and the signing key;
//   - tenant: the tenant's objects, their rules and their persistence;
//   - actionruntime: actions' code in Node.js workers, and npm;
//   - wire: the API's wire format, which the routes and the token endpoint share.
//
// A room imports only rooms listed after it (mgmtapi and oauth not each
// other), never this package (rooms_test.go checks it).
package emulator

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/mgmtapi"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/oauth"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Options configure an emulator. The zero value is a usable emulator on a
// random loopback port with no rate limit on the Management API, no entity
// cap and no faults; token exchanges have the platform's limits.
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
	// NoClientConnections is a tenant whose flag enable_client_connections
	// is off: a new client is enabled for no connection (tenant/connections.go).
	NoClientConnections bool
	// Log receives the emulator's log: one line for each request it does
	// not serve, what the actions' code prints, the npm installs of their
	// dependencies, and one line for each token exchange (nil: no log).
	Log io.Writer
	// Assume answers what the reference leaves open, one setting each.
	Assume tenant.Assumptions
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
	// (default 20s), waiting for a worker included: the exchange's action
	// from the request's start, each post-login action from its own.
	ActionTimeout time.Duration
	// InstallTimeout bounds one npm install of a version's dependencies
	// (default 5 minutes); an install past it is ended, and the build goes
	// on as without npm.
	InstallTimeout time.Duration
	// ExchangeRateLimit is the custom token exchange's own rate limit
	// (0: the default; negative: no limit), in a bucket of
	// ExchangeRateBurst (0: one second's worth).
	ExchangeRateLimit ExchangeRate
	ExchangeRateBurst int
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
		if _, _, err := tenant.SplitPackage(p); err != nil {
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

// The tenant's types that the emulator's API shows (package tenant holds
// the tenant's objects).
type (
	// Assumptions answer what the reference leaves open, one setting each.
	Assumptions = tenant.Assumptions
	// Assumption is one of them, with its values.
	Assumption = tenant.Assumption
	// OutboxMessage is one test notification the emulator "sent".
	OutboxMessage = tenant.OutboxMessage
	// DemoIDs are the objects --demo seeds.
	DemoIDs = tenant.DemoIDs
	// State is every object, as the API shows it.
	State = tenant.State
)

// ExchangeThrottle is the pre-custom-token-exchange stage of Suspicious IP
// Throttling as the emulator's flags set it at start, over the tenant's
// setting (tenant.SeedIPThrottling; the throttle itself: oauth/exchange.go).
type ExchangeThrottle struct {
	// Disabled turns the throttle off: the setting's enabled is false.
	Disabled bool
	// MaxAttempts is the bucket's size (0: the setting's, 10 by default).
	MaxAttempts int
	// Rate is how often one attempt comes back (0: the setting's, 10
	// minutes by default).
	Rate time.Duration
}

// AllAssumptions lists every assumption, with its values.
var AllAssumptions = tenant.AllAssumptions

// AllScopes is every scope of the Management API's catalogue.
func AllScopes() []string { return tenant.AllScopes() }

// Server is a running emulator.
type Server struct {
	opts     Options
	srv      *http.Server
	listener net.Listener
	domain   string // scheme://host:port
	caFile   string

	// The tenant's objects and its lock, which guards the fields below too.
	t       *tenant.Tenant
	start   *tenant.Store
	faults  Faults
	rng     *rand.Rand
	limiter limiter
	omit    map[string]bool
	stats   Stats
	log     *log.Logger // nil: no log

	runtime *actionruntime.Runtime
	// cancelRequests ends the requests' contexts, at a stop.
	cancelRequests context.CancelFunc
	oauth          *oauth.Server
	api            *mgmtapi.Server
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
		opts.ActionTimeout = actionruntime.DefaultTimeout
	}
	var saved *tenant.SavedState
	if opts.StateFile != "" {
		if saved, err = tenant.LoadState(opts.StateFile); err != nil {
			return nil, err
		}
	}
	if saved != nil && opts.ClientID == "" && opts.ClientSecret == "" {
		opts.ClientID, opts.ClientSecret = saved.ClientID, saved.ClientSecret
	}
	if opts.ClientID == "" {
		opts.ClientID = wire.RandomString(32)
	}
	if opts.ClientSecret == "" {
		opts.ClientSecret = wire.RandomString(64)
	}
	if opts.TenantName == "" {
		opts.TenantName = "emulated-tenant"
	}
	if err := opts.Faults.check(); err != nil {
		return nil, err
	}
	if err := opts.Assume.Normalize(); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, listener: l, t: &tenant.Tenant{Host: l.Addr().String(), Cap: opts.EntityCap, Name: opts.TenantName,
		Assume: opts.Assume, BuildDelay: opts.BuildDelay, FieldsEverywhere: opts.FieldsEverywhere,
		NoClientConnections: opts.NoClientConnections}}
	s.domain = "http://" + s.t.Host
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
		s.t.Log = s.log.Printf
	}
	s.t.Installer = actionruntime.NewInstaller(actionruntime.InstallerOptions{Cache: opts.PackageCache, Npm: opts.Npm, Registry: opts.NpmRegistry, Timeout: opts.InstallTimeout})
	s.runtime = actionruntime.New(actionruntime.Options{Node: opts.Node, Timeout: opts.ActionTimeout, Log: s.t.Logf})
	if s.oauth, err = oauth.New(s.t, s.runtime, oauth.Options{TokenLifetime: opts.TokenLifetime, ExchangeRate: opts.ExchangeRateLimit.perSecond(), ExchangeBurst: opts.ExchangeRateBurst}); err != nil {
		l.Close()
		return nil, err
	}
	key, _ := s.oauth.Key()
	s.api = mgmtapi.New(s.t, s.runtime, &key.PublicKey)
	s.t.St = tenant.NewStore()
	if saved != nil {
		s.t.St, s.t.Seeded = saved.Store, saved.Demo
		s.t.KeepSystemAPIs(s.t.St)
	}
	s.t.SeedSystem()
	s.t.SeedIPThrottling(opts.ExchangeThrottle.Disabled, opts.ExchangeThrottle.MaxAttempts, opts.ExchangeThrottle.Rate)
	if saved != nil {
		s.t.MoveGrants(saved.OldAudience, s.Audience())
	}
	s.t.SeedClient(tenant.ClientSeed{ID: opts.ClientID, Secret: opts.ClientSecret, Scopes: tenant.AllScopes(), Global: true}, "Default App")
	for _, c := range opts.Clients {
		s.t.SeedClient(tenant.ClientSeed(c), c.ID)
	}
	s.t.SeedDefaultConnection()
	if opts.Demo && saved == nil {
		s.t.SeedDemo()
	}
	s.start = s.t.St.Clone()

	base, cancelRequests := context.WithCancel(context.Background())
	s.cancelRequests = cancelRequests
	s.srv = &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return base }}
	if opts.TLS {
		cert, caFile, err := selfSigned()
		if err != nil {
			l.Close()
			return nil, err
		}
		s.caFile = caFile
		s.domain = "https://" + s.t.Host
		l = tls.NewListener(l, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	go func() { _ = s.srv.Serve(l) }()
	return s, nil
}

// DefaultExchangeRateLimit is the custom token exchange's rate limit by
// default, requests a second: the platform's figure for its Enterprise tier.
const DefaultExchangeRateLimit = oauth.DefaultExchangeRate

// ExchangeRate is the custom token exchange's own rate limit, in requests
// a second for the tenant. As an option, 0 is the default
// (DefaultExchangeRateLimit) and a negative rate no limit. As the
// command's flag (a flag.Value), the default is the option's and 0 is no
// limit, as for the command's other limits.
type ExchangeRate float64

// perSecond is the limit oauth.Options takes: the default for 0, and 0 or
// less for none.
func (r ExchangeRate) perSecond() float64 {
	if r == 0 {
		return DefaultExchangeRateLimit
	}
	return float64(r)
}

// Set reads the flag's value: a number of requests a second, 0 for none.
func (r *ExchangeRate) Set(v string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return errors.New("parse error") // the flag package's words for a bad number
	}
	if f < 0 || math.IsNaN(f) {
		return fmt.Errorf("%s requests a second: give 0 (no limit) or more", v)
	}
	if f == 0 {
		f = -1
	}
	*r = ExchangeRate(f)
	return nil
}

// String is the flag's value: the limit in force, 0 for none.
func (r *ExchangeRate) String() string {
	return strconv.FormatFloat(max(r.perSecond(), 0), 'g', -1, 64)
}

// Close stops the server, writes Options.StateFile when set, and, with
// TLS, removes the certificate's folder. Requests still under way after a
// grace of 5 seconds (an action that hangs) are ended: a stop is not an
// error.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s.srv.Shutdown(ctx) != nil {
		// The actions' executions end, so that their requests answer
		// (Unavailable); then the requests' contexts, for any other wait;
		// a connection still open after that is closed.
		_ = s.runtime.Close()
		s.cancelRequests()
		again, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if s.srv.Shutdown(again) != nil {
			_ = s.srv.Close()
		}
	}
	s.t.Installer.Close()
	err := s.runtime.Close()
	if s.opts.StateFile != "" {
		err = errors.Join(err, s.t.SaveState(s.opts.StateFile, s.opts.ClientID, s.opts.ClientSecret))
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
func (s *Server) Audience() string { return s.t.Audience() }

// ClientID and ClientSecret are the default (global, every scope) client's.
func (s *Server) ClientID() string     { return s.opts.ClientID }
func (s *Server) ClientSecret() string { return s.opts.ClientSecret }

// CAFile is the PEM certificate to trust with TLS ("" without).
func (s *Server) CAFile() string { return s.caFile }

// Demo returns the ids seeded by Options.Demo.
func (s *Server) Demo() tenant.DemoIDs { return s.t.Seeded }

// AddClient registers another application (a non-global one, or one with
// fewer scopes), or gives one it has these settings.
func (s *Server) AddClient(c Client) {
	s.t.Lock()
	defer s.t.Unlock()
	s.t.SeedClient(tenant.ClientSeed(c), c.ID)
}

// SetEntityCap sets the per-type object cap (0: none).
func (s *Server) SetEntityCap(n int) {
	s.t.Lock()
	defer s.t.Unlock()
	s.t.Cap = n
}

// SetFaults replaces the fault settings.
func (s *Server) SetFaults(f Faults) {
	s.t.Lock()
	defer s.t.Unlock()
	s.setFaults(f)
}

func (s *Server) setFaults(f Faults) {
	f.FailingPackages = slices.Clone(f.FailingPackages)
	f.Routes = maps.Clone(f.Routes)
	s.faults = f
	s.t.FailingPackages = f.FailingPackages
	s.rng = rand.New(rand.NewPCG(uint64(f.Seed), uint64(f.Seed)^0x9e3779b97f4a7c15))
}

// SetRateLimit replaces the rate limit by a token bucket (0 rps: no limit).
func (s *Server) SetRateLimit(rps float64, burst int) {
	s.t.Lock()
	defer s.t.Unlock()
	s.limiter = newLimiter(rps, burst, 0)
}

// BindingHistory returns, for the trigger, the action ids of every list of
// bindings it held since the emulator started (the latest 1000), each in
// execution order, oldest first: one per PATCH of its bindings and per
// delete of a bound action that unbound it. A test reads it to see every
// list the trigger ran, not only the last.
func (s *Server) BindingHistory(trigger string) [][]string {
	s.t.Lock()
	defer s.t.Unlock()
	return s.t.BindingHistory(trigger)
}

// Outbox returns every test notification sent so far.
func (s *Server) Outbox() []tenant.OutboxMessage {
	s.t.Lock()
	defer s.t.Unlock()
	return append([]tenant.OutboxMessage(nil), s.t.St.Outbox...)
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
func (s *Server) APIRoutes() []string { return s.api.Served() }

// Stats returns a copy of the request counters.
func (s *Server) Stats() Stats {
	s.t.Lock()
	defer s.t.Unlock()
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
	s.t.Lock()
	defer s.t.Unlock()
	s.stats = newStats()
}

// Reset returns the store to its starting state and zeroes the counters.
func (s *Server) Reset() {
	s.t.Lock()
	s.t.St = s.start.Clone()
	s.oauth.Reset()
	s.api.RetireWorkers()
	s.t.Unlock()
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
	s.oauth.Routes(api)
	s.api.Routes(api)
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
		s.t.Lock()
		s.stats.Total++
		s.stats.ByRoute[label]++
		status := "dropped"
		if rec.status != 0 {
			status = strconv.Itoa(rec.status)
		}
		s.stats.ByStatus[status]++
		s.t.Unlock()
	})
}

// serveAPI applies latency, the rate limit, faults and, under /api/v2,
// authentication before the route ("" pattern: none matched). A matched
// path is canonical, so the mux neither cleans nor redirects it.
func (s *Server) serveAPI(w *recorder, r *http.Request, isAPI bool, api *http.ServeMux, pattern string) {
	s.t.Lock()
	f := s.faults
	routeStatus := 0
	if pattern != "" {
		routeStatus = f.Routes[pattern]
	}
	fail := f.ErrorRate > 0 && s.rng.Float64() < f.ErrorRate
	failStatus := []int{500, 502, 503}[s.rng.IntN(3)]
	drop := f.DropRate > 0 && s.rng.Float64() < f.DropRate
	limit, remaining, reset, allowed := s.limiter.take(time.Now())
	s.t.Unlock()

	if f.LatencyMS > 0 {
		time.Sleep(time.Duration(f.LatencyMS) * time.Millisecond)
	}
	if limit > 0 {
		s.rateLimitHeaders(w.Header(), limit, remaining, reset)
	}
	if !allowed {
		wire.WriteErr(w, wire.NewErr(429, "Global limit has been reached", "too_many_requests"))
		return
	}
	if routeStatus != 0 {
		wire.WriteErr(w, wire.NewErr(routeStatus, "Injected fault for "+pattern+".", ""))
		return
	}
	if isAPI && fail {
		wire.WriteErr(w, wire.NewErr(failStatus, "Injected fault: the server failed before handling the request.", ""))
		return
	}
	if isAPI {
		var e *wire.Error
		if r, e = s.api.Authenticate(r); e != nil {
			wire.WriteErr(w, e)
			return
		}
	}
	if pattern == "" {
		// Assumption (no recording or reference shows the API's answer to
		// a route it does not have): the API's error shape with the reason
		// phrase as message, as recorded for 404s that name nothing more.
		wire.WriteErr(w, wire.NewErr(404, "Not Found", ""))
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
	mux.HandleFunc("GET /__emulator/stats", func(w http.ResponseWriter, r *http.Request) { wire.WriteJSON(w, 200, s.Stats()) })
	mux.HandleFunc("POST /__emulator/stats/reset", func(w http.ResponseWriter, r *http.Request) { s.ResetStats(); wire.NoContent(w) })
	mux.HandleFunc("POST /__emulator/reset", func(w http.ResponseWriter, r *http.Request) { s.Reset(); wire.NoContent(w) })
	mux.HandleFunc("GET /__emulator/outbox", func(w http.ResponseWriter, r *http.Request) { wire.WriteJSON(w, 200, s.Outbox()) })
	// Over HTTP the state shows no secret: anything on the machine can ask,
	// an action's code included.
	mux.HandleFunc("GET /__emulator/state", func(w http.ResponseWriter, r *http.Request) { wire.WriteJSON(w, 200, s.t.Snapshot(false)) })
	mux.HandleFunc("PUT /__emulator/faults", func(w http.ResponseWriter, r *http.Request) {
		var f Faults
		if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
			wire.WriteErr(w, wire.NewErr(400, "faults: "+err.Error(), ""))
			return
		}
		if err := f.check(); err != nil {
			wire.WriteErr(w, wire.NewErr(400, err.Error(), ""))
			return
		}
		s.SetFaults(f)
		wire.WriteJSON(w, 200, f)
	})
}

// State returns a snapshot of the store, secrets included: the client
// secrets and the HS256 APIs' signing secrets.
func (s *Server) State() tenant.State { return s.t.Snapshot(true) }

// PhoneCredentials returns the credentials the tenant holds for the phone
// provider id (nil when none), which the API never returns: for tests, as
// Outbox is.
func (s *Server) PhoneCredentials(id string) map[string]string {
	s.t.Lock()
	defer s.t.Unlock()
	return maps.Clone(s.t.St.PhoneCredentials[id])
}
