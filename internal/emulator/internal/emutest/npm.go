package emutest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FakeNpm is an npm that never ends on its own: it records its process id
// and that of a child it starts, which holds npm's output open as a stuck
// download would, and waits for it.
type FakeNpm struct {
	Path string // the program, for Options.Npm
	dir  string
}

// NewFakeNpm writes a FakeNpm into a folder of the test's.
func NewFakeNpm(t testing.TB) *FakeNpm {
	t.Helper()
	dir := t.TempDir()
	f := &FakeNpm{Path: filepath.Join(dir, "npm"), dir: dir}
	// The child starts first, and both ids are written at once, as the
	// fake's first steps: a test whose limit is beyond a shell's start
	// finds both.
	script := "#!/bin/sh\n" +
		": > " + dir + "/ran\n" +
		"sleep 3600 &\n" +
		"echo $$ $! > " + dir + "/pids.tmp && mv " + dir + "/pids.tmp " + dir + "/pids\n" +
		"wait\n"
	if err := os.WriteFile(f.Path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// Ran reports whether the fake npm has been started.
func (f *FakeNpm) Ran() bool {
	_, err := os.Stat(filepath.Join(f.dir, "ran"))
	return err == nil
}

// PIDs waits until the fake npm and its child have started, and returns
// their process ids. The bound only ends a test that fails.
func (f *FakeNpm) PIDs(t testing.TB) []int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(f.dir, "pids")); err == nil {
			var pids []int
			for _, field := range strings.Fields(string(b)) {
				pid, _ := strconv.Atoi(field)
				pids = append(pids, pid)
			}
			return pids
		}
	}
	t.Fatal("gave up waiting for the fake npm to start")
	return nil
}

// RequireNpm skips a test that installs packages for real where this
// machine has no npm.
func RequireNpm(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skipf("this test installs packages with npm: %v", err)
	}
}
