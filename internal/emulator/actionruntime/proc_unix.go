//go:build !windows

package actionruntime

import (
	"os/exec"
	"syscall"
)

// newProcessGroup starts the command in a process group of its own, so
// that ending it ends whatever it started; where the system can, the
// process ends with the emulator, also one killed without a stop.
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	endWithParent(cmd.SysProcAttr)
}

// killGroup kills the command's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
