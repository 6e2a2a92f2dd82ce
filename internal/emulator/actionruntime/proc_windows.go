//go:build windows

package actionruntime

import (
	"os/exec"
	"syscall"
)

// newProcessGroup starts the command in a process group of its own.
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup kills the command's process (Windows ends no group at once;
// the workers start no process of their own).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
