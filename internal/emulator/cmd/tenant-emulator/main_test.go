package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseFlags_failPackage(t *testing.T) {
	fs := flag.NewFlagSet("tenant-emulator", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o, err := parseFlags(fs, []string{"--fail-package", "auth0@2.42.0", "--fail-package=@acme/sdk", "--latency", "5ms"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"auth0@2.42.0", "@acme/sdk"}; !slices.Equal(o.Faults.FailingPackages, want) {
		t.Fatalf("FailingPackages %q, want %q", o.Faults.FailingPackages, want)
	}
	if o.Faults.LatencyMS != 5 {
		t.Fatalf("LatencyMS %d", o.Faults.LatencyMS)
	}
	o, err = parseFlags(flag.NewFlagSet("tenant-emulator", flag.ContinueOnError), nil)
	if err != nil || o.Faults.FailingPackages != nil {
		t.Fatalf("no flag: %q, %v", o.Faults.FailingPackages, err)
	}
}
