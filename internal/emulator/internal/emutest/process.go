package emutest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

// Running reports whether a process of that id runs (a zombie does not).
func Running(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil || p.Signal(syscall.Signal(0)) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	s := string(stat) // the state follows the command's closing parenthesis
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
