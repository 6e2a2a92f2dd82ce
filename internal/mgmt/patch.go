package mgmt

import "encoding/json"

// Patch is one field of a PATCH body: left out (the zero value), an explicit
// null (which clears the field, reference §0.2 and §4), or a value. Fields of
// this type carry the `omitzero` option so that unset ones are not sent.
type Patch[T any] struct {
	set   bool
	null  bool
	value T
}

// Set is a Patch that sends v.
func Set[T any](v T) Patch[T] { return Patch[T]{set: true, value: v} }

// Null is a Patch that sends null.
func Null[T any]() Patch[T] { return Patch[T]{set: true, null: true} }

// IsZero reports whether the field is left out of the body.
func (p Patch[T]) IsZero() bool { return !p.set }

// IsNull reports whether the field is sent as null.
func (p Patch[T]) IsNull() bool { return p.set && p.null }

// Value is what is sent (the zero value when left out or null).
func (p Patch[T]) Value() T { return p.value }

func (p Patch[T]) MarshalJSON() ([]byte, error) {
	if !p.set || p.null {
		return []byte("null"), nil
	}
	return json.Marshal(p.value)
}
