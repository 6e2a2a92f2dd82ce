package acctest

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestOnSuccess: a failed answer is not kept (the next call asks again);
// the first answer that is not an error is, and is not asked for again.
func TestOnSuccess(t *testing.T) {
	calls := 0
	answers := []error{errors.New("fork/exec terraform: resource temporarily unavailable"), nil, errors.New("not asked")}
	ask := onSuccess(func() (int, error) {
		err := answers[calls]
		calls++
		return calls, err
	})
	if _, err := ask(); err == nil {
		t.Fatal("the first call's error was not returned")
	}
	for i := range 2 {
		v, err := ask()
		if err != nil || v != 2 {
			t.Fatalf("call %d: %d, %v; want 2, no error (the second answer, kept)", i+2, v, err)
		}
	}
	if calls != 2 {
		t.Errorf("f asked %d times, want 2", calls)
	}
}

// TestOnSuccess_parallel: tests in parallel ask at once; f answers once.
func TestOnSuccess_parallel(t *testing.T) {
	var calls atomic.Int64
	release := make(chan struct{})
	ask := onSuccess(func() (int64, error) {
		<-release // the callers pile up while f runs
		return calls.Add(1), nil
	})
	var wg sync.WaitGroup
	got := make([]int64, 8)
	for i := range got {
		wg.Go(func() { got[i], _ = ask() })
	}
	close(release)
	wg.Wait()
	for i, v := range got {
		if v != 1 {
			t.Errorf("caller %d got %d, want 1 (the one answer)", i, v)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("f asked %d times, want 1", n)
	}
}
