package conns

import (
	"context"
	"sync"
)

// WaitingContext tells, through Waiting, that a select has taken its Done
// channel: the waits of this package take it only to wait, so a test knows
// that a call waits without a timer.
type WaitingContext struct {
	context.Context
	once    sync.Once
	Waiting chan struct{}
}

// NewWaitingContext is a WaitingContext of ctx.
func NewWaitingContext(ctx context.Context) *WaitingContext {
	return &WaitingContext{Context: ctx, Waiting: make(chan struct{})}
}

func (c *WaitingContext) Done() <-chan struct{} {
	c.once.Do(func() { close(c.Waiting) })
	return c.Context.Done()
}
