package emutest

import (
	"bytes"
	"fmt"
	"sync"
)

// Log is a log that tests read while the emulator writes it.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Printf writes a line, as a log function does.
func (l *Log) Printf(format string, args ...any) { fmt.Fprintf(l, format+"\n", args...) }
