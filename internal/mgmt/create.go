package mgmt

import (
	"context"
	"errors"
)

// IsUncertain reports whether a write may have been applied although no
// success answer arrived: the connection failed after the request was sent,
// or the server (or a proxy in front of it) failed with a 5xx, possibly after
// committing it.
func IsUncertain(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.As(err, new(*TokenError)) || errors.As(err, new(*RedirectError)) || errors.As(err, new(*PathError)) || errors.Is(err, errNotConfigured) {
		return false
	}
	if e, ok := AsAPIError(err); ok {
		return e.StatusCode >= 500
	}
	return !notSent(err)
}

// ErrDifferent is returned by SafeCreate when a create whose answer was lost
// finds an object under its natural key that differs from what was sent: it
// may be another writer's, so it is not adopted.
var ErrDifferent = errors.New("an object with the same natural key exists and differs from the configuration")

// ErrExists is returned by SafeCreate when the first attempt of a create
// meets a 409: the object existed before this create, so it belongs to
// someone else (another configuration, another resource instance) and is
// never adopted.
var ErrExists = errors.New("an object with the same natural key already exists")

// CreateOutcome says how SafeCreate got its object.
type CreateOutcome int

const (
	// Created: the create request succeeded.
	Created CreateOutcome = iota
	// Adopted: an earlier attempt of this create may have been applied (its
	// answer was lost), and the object found under the natural key equals
	// what was sent.
	Adopted
)

// SafeCreate creates an object whose natural key is unique (a subject token
// type, an identifier, a name) without leaving an orphan or a duplicate, and
// without taking over an object that was there before.
//
// When an attempt fails in a way that may have been applied (IsUncertain),
// the object is looked up by its natural key: if it does not exist the create
// is sent again (at most attempts times in all); if it equals what was sent it
// is adopted; otherwise ErrDifferent is returned with it. A 409 is treated the
// same way only after such a lost answer, since it is then most likely this
// create's own object; a 409 on an attempt that follows no lost answer returns
// ErrExists with the existing object (looked up so the caller can name it).
func SafeCreate[T any](ctx context.Context, attempts int, create func() (*T, error), lookup func() (*T, error), same func(*T) bool) (*T, CreateOutcome, error) {
	var err error
	lost := false
	for i := 0; i < attempts; i++ {
		var obj *T
		obj, err = create()
		if err == nil {
			return obj, Created, nil
		}
		conflict := IsConflict(err)
		if !conflict && !IsUncertain(err) {
			return nil, Created, err
		}
		found, lerr := lookup()
		if lerr != nil {
			return nil, Created, errors.Join(err, lerr)
		}
		switch {
		case conflict && !lost:
			return found, Created, errors.Join(ErrExists, err)
		case found == nil && conflict:
			return nil, Created, err
		case found == nil:
			lost = true
			continue // the lost create was not applied: it is safe to send again
		case same(found):
			return found, Adopted, nil
		}
		return found, Created, errors.Join(ErrDifferent, err)
	}
	return nil, Created, err
}
