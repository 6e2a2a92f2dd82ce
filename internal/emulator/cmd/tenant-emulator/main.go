// Command tenant-emulator serves the local tenant emulator on a loopback
// address and prints one JSON line describing how to reach it.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func main() {
	o, err := parseFlags(flag.CommandLine, os.Args[1:])
	if err != nil {
		os.Exit(2)
	}
	// Standard error, so that standard output stays the one JSON line.
	o.Log = os.Stderr
	// Listen for the signals before the JSON line says the emulator is up:
	// a script that stops it on that line gets a clean exit.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	s, err := emulator.Start(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tenant-emulator:", err)
		os.Exit(2)
	}
	// audience is what a client asks the token endpoint for to call the
	// API (https:// even when it serves http://), as for a tenant.
	line := map[string]any{"domain": s.Domain(), "base_url": s.BaseURL(), "audience": s.Audience(), "client_id": s.ClientID(), "client_secret": s.ClientSecret()}
	if s.CAFile() != "" {
		line["ca_file"] = s.CAFile()
	}
	if o.Demo {
		d := s.Demo()
		line["demo_action_id"], line["demo_role_id"], line["demo_phone_provider_id"] = d.ActionID, d.RoleID, d.PhoneProviderID
	}
	if err := json.NewEncoder(os.Stdout).Encode(line); err != nil {
		os.Exit(1)
	}

	<-sig
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "tenant-emulator: shutdown:", err)
		os.Exit(1)
	}
}

// packages is a repeatable flag: each use adds one entry.
type packages []string

func (p *packages) String() string     { return strings.Join(*p, ",") }
func (p *packages) Set(v string) error { *p = append(*p, v); return nil }

// parseFlags defines the flags on fs, parses args and returns the options
// they set.
func parseFlags(fs *flag.FlagSet, args []string) (emulator.Options, error) {
	var (
		o       emulator.Options
		latency time.Duration
		omit    string
		clients string
	)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: tenant-emulator [flags]

Serves a local emulator of the tenant Management API v2 on a loopback
address and prints one JSON line: domain, base_url, audience (what to ask
the token endpoint for to call the API), client_id, client_secret, and
ca_file with --tls, demo ids with --demo.

Management API rate limits: by default none (the token exchange has its
own, --exchange-rate-limit). --rate-limit-rps with --rate-limit-burst is
a token bucket; adding --rate-limit-window makes it a fixed window of
--rate-limit-burst requests (or rps x window) that all come back at the
window's end. --clock-skew shifts the clock the answers show (Date and
X-RateLimit-Reset) but not the limit; --omit-rate-limit-headers drops
some or all of X-RateLimit-Limit, -Remaining and -Reset.

Credentials: the default client (every scope, global) is random unless
--client-id and --client-secret set it, or --state-file holds it. More
clients, each with its own scopes, come from --clients, a JSON file:
  [{"client_id": "ci-read", "client_secret": "...", "scopes": ["read:roles"]},
   {"client_id": "admin", "client_secret": "...", "scopes": ["*"], "global": true}]
("*" is every scope; only a global client may create token exchange
profiles). Each is a client of the tenant (GET /api/v2/clients) with a
client grant for the Management API that holds its scopes. --state-file keeps the tenant across restarts: read at start,
written when the emulator stops (SIGINT or SIGTERM).

Custom token exchanges at /oauth/token run the profile's action for real:
its code in Node.js (--node, 20 or newer), its dependencies installed with
npm when the version is built (--npm, --npm-registry, --package-cache).
Without them the emulator serves everything else, and an exchange answers
with an error that says what is missing. What the actions print goes to
standard error, with a line for each exchange.

Requests to a route the emulator does not serve are answered 404 and
logged on standard error with their method and path.

Admin endpoints under /__emulator/ (stats, stats/reset, reset, state,
outbox, faults) answer only loopback Host names and refuse requests with
an Origin header or a non-JSON Content-Type on writes.

Assumptions: where the API's documentation leaves a behaviour open, the
emulator answers it one way by default (the first value below); --assume
name=value (repeatable) answers it another way:
`)
		for _, a := range emulator.AllAssumptions {
			fmt.Fprintf(fs.Output(), "  %s=%s\n", a.Name, strings.Join(a.Values, "|"))
		}
		fmt.Fprint(fs.Output(), "\nFlags:\n")
		fs.PrintDefaults()
	}
	fs.StringVar(&o.Listen, "listen", "127.0.0.1:8787", "loopback address to listen on (127.0.0.1:0 picks a free port)")
	fs.StringVar(&o.ClientID, "client-id", "", "client id of the default global client (random when empty)")
	fs.StringVar(&o.ClientSecret, "client-secret", "", "client secret of the default client (random when empty)")
	fs.StringVar(&clients, "clients", "", "JSON file of more clients: [{client_id, client_secret, scopes, global}]")
	fs.StringVar(&o.StateFile, "state-file", "", "keep the tenant (and the default client's credentials) in this file across restarts")
	fs.Float64Var(&o.RateLimitRPS, "rate-limit-rps", 0, "token-bucket refill rate in requests per second (0: no limit, unless --rate-limit-window and --rate-limit-burst are set)")
	fs.IntVar(&o.RateLimitBurst, "rate-limit-burst", 0, "token-bucket size, or requests per window with --rate-limit-window (default: the rps, or rps x window)")
	fs.DurationVar(&o.RateLimitWindow, "rate-limit-window", 0, "fixed-window rate limit: the window's length, e.g. 1s or 1m (0: token bucket)")
	fs.DurationVar(&o.ClockSkew, "clock-skew", 0, "shift of the clock shown in Date and X-RateLimit-Reset, e.g. -90s or 5m (the limit runs on real time)")
	fs.StringVar(&omit, "omit-rate-limit-headers", "", "comma-separated rate-limit headers to leave out (X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset), or all")
	fs.DurationVar(&o.BuildDelay, "build-delay", 100*time.Millisecond, "how long an action's build takes (pending, building, then built)")
	fs.IntVar(&o.EntityCap, "entity-cap", 0, "maximum objects per type (0: no cap)")
	fs.Float64Var(&o.Faults.ErrorRate, "fault-5xx-rate", 0, "share of API requests answered 5xx (0..1)")
	fs.Float64Var(&o.Faults.DropRate, "fault-drop-rate", 0, "share of writes applied and then left unanswered (0..1)")
	fs.DurationVar(&latency, "latency", 0, "delay added to every API answer (e.g. 100ms)")
	fs.Int64Var(&o.Faults.Seed, "seed", 1, "seed of the fault generator")
	fs.DurationVar(&o.TokenLifetime, "token-lifetime", 24*time.Hour, "lifetime of issued access tokens")
	fs.BoolVar(&o.TLS, "tls", false, "serve HTTPS with a self-signed certificate (its PEM path is printed as ca_file)")
	fs.BoolVar(&o.Demo, "demo", false, "seed a deployed custom-token-exchange action, a role and a phone provider")
	fs.BoolVar(&o.FieldsEverywhere, "fields-everywhere", false, "apply fields and include_fields on every list and read route, not only on resource servers and users")
	fs.BoolVar(&o.NoClientConnections, "no-client-connections", false, "a tenant whose flag enable_client_connections is off: a new client is enabled for no connection")
	fs.Func("assume", "answer an open question of the API another way: name=value (repeatable; the names and values are listed above)", func(v string) error {
		name, value, ok := strings.Cut(v, "=")
		if !ok {
			return fmt.Errorf("%q: want name=value", v)
		}
		return o.Assume.Set(name, value)
	})
	fs.Var((*packages)(&o.Faults.FailingPackages), "fail-package", "make every action build that depends on this package fail: name@version, or name for every version (repeatable)")
	fs.StringVar(&o.Node, "node", "", "the Node.js program (20 or newer) that runs actions' code (default: node on PATH)")
	fs.StringVar(&o.Npm, "npm", "", "the npm program that installs actions' dependencies (default: npm on PATH)")
	fs.StringVar(&o.NpmRegistry, "npm-registry", "", "the registry npm installs from (default: npm's own setting)")
	fs.StringVar(&o.PackageCache, "package-cache", "", "folder of installed dependency sets, shared by emulators (default: the user's cache folder, tenant-emulator/packages)")
	fs.DurationVar(&o.ActionTimeout, "action-timeout", 20*time.Second, "how long one execution of an action may take, waiting for a worker included (the exchange's action counts from the request's start)")
	fs.DurationVar(&o.InstallTimeout, "install-timeout", 5*time.Minute, "how long one npm install of an action's dependencies may take")
	fs.Var(&o.ExchangeRateLimit, "exchange-rate-limit", fmt.Sprintf("the custom token exchange's own rate limit, `requests` a second for the tenant (default %v; 0: none)", emulator.DefaultExchangeRateLimit))
	fs.IntVar(&o.ExchangeThrottle.MaxAttempts, "exchange-max-attempts", 10, "Suspicious IP Throttling of token exchanges: rejected subject tokens an address may send before it is answered 429")
	fs.DurationVar(&o.ExchangeThrottle.Rate, "exchange-attempt-rate", 10*time.Minute, "Suspicious IP Throttling of token exchanges: how often one attempt comes back")
	fs.BoolVar(&o.ExchangeThrottle.Disabled, "no-exchange-throttle", false, "turn the Suspicious IP Throttling of token exchanges off")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.Faults.LatencyMS = int(latency / time.Millisecond)
	if clients != "" {
		var err error
		if o.Clients, err = readClients(clients); err != nil {
			fmt.Fprintln(fs.Output(), "tenant-emulator: --clients:", err)
			return o, err
		}
	}
	if omit != "" {
		o.OmitRateLimitHeaders = strings.Split(omit, ",")
	}
	return o, nil
}

// readClients reads the --clients file.
func readClients(path string) ([]emulator.Client, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var entries []struct {
		ID     string   `json:"client_id"`
		Secret string   `json:"client_secret"`
		Scopes []string `json:"scopes"`
		Global bool     `json:"global"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	known := map[string]bool{}
	for _, s := range emulator.AllScopes() {
		known[s] = true
	}
	out := make([]emulator.Client, 0, len(entries))
	seen := map[string]bool{}
	for i, e := range entries {
		if e.ID == "" || e.Secret == "" {
			return nil, fmt.Errorf("%s: client %d needs client_id and client_secret", path, i)
		}
		if seen[e.ID] {
			return nil, fmt.Errorf("%s: client_id %q appears twice", path, e.ID)
		}
		seen[e.ID] = true
		c := emulator.Client{ID: e.ID, Secret: e.Secret, Global: e.Global}
		for _, s := range e.Scopes {
			switch {
			case s == "*":
				c.Scopes = append(c.Scopes, emulator.AllScopes()...)
			case known[s]:
				c.Scopes = append(c.Scopes, s)
			default:
				return nil, fmt.Errorf("%s: client %q: unknown scope %q", path, e.ID, s)
			}
		}
		out = append(out, c)
	}
	return out, nil
}
