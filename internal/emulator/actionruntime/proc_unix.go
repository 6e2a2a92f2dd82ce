//go:build !windows

package actionruntime

import (
	"os/exec"
	"syscall"
)

// newProcessGroup starts the command in a process group of its own, so
// that ending it ends whatever it started.
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the command's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
