package mgmt

import (
	"context"
	"errors"
	"net/http"
)

// IsUncertain reports whether a write may have been applied although no
// success answer arrived: the connection failed after the request was sent,
// or the server failed (500, 502, 504) possibly after committing it.
func IsUncertain(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var te *TokenError
	if errors.As(err, &te) || errors.Is(err, errNotConfigured) {
		return false
	}
	if e, ok := AsAPIError(err); ok {
		switch e.StatusCode {
		case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	return !notSent(err)
}

// ErrDifferent is returned by SafeCreate when an object with the same
// natural key exists but differs from what was sent.
var ErrDifferent = errors.New("an object with the same natural key exists and differs from the configuration")

// CreateOutcome says how SafeCreate got its object.
type CreateOutcome int

const (
	// Created: the create request succeeded.
	Created CreateOutcome = iota
	// Adopted: the create's answer was lost (or a 409 came back) and the
	// object found under the natural key equals what was sent.
	Adopted
)

// SafeCreate creates an object whose natural key is unique (a subject token
// type, an identifier) without ever leaving an orphan or a duplicate. When a
// create fails in a way that may have been applied, or meets a 409, the object
// is looked up by its natural key: if it equals what was sent it is adopted,
// if it differs ErrDifferent is returned together with it, and if it does not
// exist the create is tried again (at most attempts times in all).
func SafeCreate[T any](ctx context.Context, attempts int, create func() (*T, error), lookup func() (*T, error), same func(*T) bool) (*T, CreateOutcome, error) {
	var err error
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
		if found == nil {
			if conflict {
				return nil, Created, err
			}
			continue // the lost create was not applied: it is safe to send again
		}
		if same(found) {
			return found, Adopted, nil
		}
		return found, Created, errors.Join(ErrDifferent, err)
	}
	return nil, Created, err
}
