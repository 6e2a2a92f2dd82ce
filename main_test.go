package main

import (
	"os"
	"strings"
	"testing"
)

var sdkLevels = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// unsetLogEnv removes every TF_LOG* variable for the test (t.Setenv restores
// them afterwards).
func unsetLogEnv(t *testing.T) {
	names := append([]string{}, sdkLevels...)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_LOG") {
			names = append(names, name)
		}
	}
	for _, name := range names {
		t.Setenv(name, "")
		if err := os.Unsetenv(name); err != nil {
			t.Fatal(err)
		}
	}
}

func TestQuietSDKLogs(t *testing.T) {
	unsetLogEnv(t)
	quietSDKLogs()
	for _, name := range sdkLevels {
		if got := os.Getenv(name); got != "off" {
			t.Errorf("without TF_LOG, %s = %q, want off", name, got)
		}
	}

	// Once any TF_LOG* variable is set, the SDK's levels are left alone.
	unsetLogEnv(t)
	t.Setenv("TF_LOG_PROVIDER", "DEBUG")
	quietSDKLogs()
	for _, name := range sdkLevels {
		if got, ok := os.LookupEnv(name); ok {
			t.Errorf("with TF_LOG_PROVIDER=DEBUG, %s = %q, want unset", name, got)
		}
	}
}
