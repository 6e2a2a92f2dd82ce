//go:build linux

package actionruntime

import "syscall"

// endWithParent has the process killed when the emulator's thread that
// started it ends: with the emulator (Go ends no thread of its own while
// the program runs, unless a goroutine locked to it ends).
func endWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
