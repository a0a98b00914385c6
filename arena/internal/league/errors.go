package league

import (
	"context"
	"errors"
)

// StoreError marks a failure of the store (locked, disk full, gone): the league stops, since
// nothing more can be kept.
type StoreError struct{ Err error }

func (e *StoreError) Error() string { return e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

// storeErr wraps a failure of the store in a *StoreError (once).
func storeErr(err error) error {
	if err == nil {
		return nil
	}
	var se *StoreError
	if errors.As(err, &se) {
		return err
	}
	return &StoreError{Err: err}
}

// isStoreErr reports whether err is a failure of the store.
func isStoreErr(err error) bool {
	var se *StoreError
	return errors.As(err, &se)
}

// canceledOr returns context.Canceled when ctx has ended (the error is then a consequence of
// stopping), and err otherwise.
func canceledOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Canceled
	}
	return err
}
