package actionruntime_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// hangs are the ways an execution never ends: waiting (the worker's
// event loop is free), or looping (it is not).
var hangs = map[string]string{
	"waiting": `await new Promise(() => setInterval(() => {}, 1000));`,
	"looping": `for (;;) {}`,
}

// A worker whose execution hangs ends when the emulator is killed, without
// a stop (kill -9). The emulator is this test's program, run again.
func TestRun_hungWorkerEndsWithAKilledEmulator(t *testing.T) {
	if os.Getenv("ACTIONRUNTIME_KILLED_EMULATOR") != "" {
		runKilledEmulator(t, os.Getenv("ACTIONRUNTIME_KILLED_EMULATOR"))
		return
	}
	for name := range hangs {
		t.Run(name, func(t *testing.T) {
			if name == "looping" && runtime.GOOS != "linux" {
				t.Skip("only Linux ends a process with its parent")
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestRun_hungWorkerEndsWithAKilledEmulator$", "-test.count=1")
			cmd.Env = append(os.Environ(), "ACTIONRUNTIME_KILLED_EMULATOR="+name)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var pid int
			var folder string
			for sc := bufio.NewScanner(out); pid == 0 && sc.Scan(); {
				if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "worker" {
					pid, _ = strconv.Atoi(f[1])
					folder = f[2]
				}
			}
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			if pid == 0 {
				t.Skip("the emulator ran no action (no Node.js here)")
			}
			t.Cleanup(func() { _ = os.RemoveAll(folder) })
			eventually(t, "the hung worker to end", func() bool { return !emutest.Running(pid) })
		})
	}
}

// runKilledEmulator runs an execution that hangs, says its worker's
// process, and waits to be killed.
func runKilledEmulator(t *testing.T, hang string) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	up := emutest.NewUpstream(t)
	v := version("hung", handler(up.Fetch("/hold/started")+hangs[hang]))
	up.Release("started")
	go func() { _, _ = rt.Run(context.Background(), v, map[string]any{}, nil) }()
	up.Arrived(t, "started", 1)
	fmt.Printf("worker %d %s\n", pids(rt, "hung")[0], rt.Folder())
	select {}
}
