//go:build !windows && !linux

package actionruntime

import "syscall"

// endWithParent does nothing where the system cannot end a process with
// its parent: a worker ends when its standard input closes.
func endWithParent(*syscall.SysProcAttr) {}
