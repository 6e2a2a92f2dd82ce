// Command tenant-emulator serves the local tenant emulator on a loopback
// address and prints one JSON line describing how to reach it.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func main() {
	var (
		o       emulator.Options
		latency time.Duration
	)
	flag.StringVar(&o.Listen, "listen", "127.0.0.1:8787", "loopback address to listen on (127.0.0.1:0 picks a free port)")
	flag.StringVar(&o.ClientID, "client-id", "", "client id of the default global client (random when empty)")
	flag.StringVar(&o.ClientSecret, "client-secret", "", "client secret of the default client (random when empty)")
	flag.Float64Var(&o.RateLimitRPS, "rate-limit-rps", 0, "token-bucket refill rate in requests per second (0: no limit)")
	flag.IntVar(&o.RateLimitBurst, "rate-limit-burst", 0, "token-bucket size (default: the rps)")
	flag.IntVar(&o.EntityCap, "entity-cap", 0, "maximum objects per type (0: no cap)")
	flag.Float64Var(&o.Faults.ErrorRate, "fault-5xx-rate", 0, "share of API requests answered 5xx (0..1)")
	flag.Float64Var(&o.Faults.DropRate, "fault-drop-rate", 0, "share of writes applied and then left unanswered (0..1)")
	flag.DurationVar(&latency, "latency", 0, "delay added to every API answer (e.g. 100ms)")
	flag.Int64Var(&o.Faults.Seed, "seed", 1, "seed of the fault generator")
	flag.DurationVar(&o.TokenLifetime, "token-lifetime", 24*time.Hour, "lifetime of issued access tokens")
	flag.BoolVar(&o.TLS, "tls", false, "serve HTTPS with a self-signed certificate (its PEM path is printed as ca_file)")
	flag.BoolVar(&o.Demo, "demo", false, "seed a deployed custom-token-exchange action, a role and a phone provider")
	flag.Parse()
	o.Faults.LatencyMS = int(latency / time.Millisecond)

	s, err := emulator.Start(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tenant-emulator:", err)
		os.Exit(2)
	}
	line := map[string]any{"domain": s.Domain(), "base_url": s.BaseURL(), "client_id": s.ClientID(), "client_secret": s.ClientSecret()}
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

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "tenant-emulator: shutdown:", err)
		os.Exit(1)
	}
}
