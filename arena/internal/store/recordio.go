package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// The primitives a compact record (record.go) is written and read with, and the scan of a
// request as sent for what the record keeps of it.

func appendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

func appendVarint(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// recordReader reads a compact record; the first error sticks and later reads give zeros.
type recordReader struct {
	b   []byte // what is left to read
	all []byte // the whole record, for errors
	err error
}

func (r *recordReader) fail() error { return fmt.Errorf("compact record: %w", r.err) }

func (r *recordReader) byte() byte {
	if len(r.b) == 0 {
		r.err = errors.New("truncated")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *recordReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		if r.err == nil {
			r.err = errors.New("truncated")
		}
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *recordReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("truncated or bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *recordReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errors.New("truncated or bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *recordReader) string() string { return string(r.bytes(int(r.uvarint()))) }

// scanRequest reads what a request as sent says of its clock and its events: its deadline,
// the overage left and the number of events; ok false if it is not a DecisionRequest in wire
// form.
func scanRequest(b []byte) (deadline time.Time, overage time.Duration, events int, ok bool) {
	const reqDeadline, reqOverage, reqEvents = 5, 6, 8 // tapp.v1.DecisionRequest
	var secs, nanos [2]int64
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return time.Time{}, 0, 0, false
		}
		b = b[n:]
		if typ == protowire.BytesType && (num == reqDeadline || num == reqOverage) {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return time.Time{}, 0, 0, false
			}
			b = b[n:]
			i := 0
			if num == reqOverage {
				i = 1
			}
			for len(v) > 0 {
				f, t, m := protowire.ConsumeTag(v)
				if m < 0 || t != protowire.VarintType {
					return time.Time{}, 0, 0, false
				}
				x, m2 := protowire.ConsumeVarint(v[m:])
				if m2 < 0 {
					return time.Time{}, 0, 0, false
				}
				v = v[m+m2:]
				switch f {
				case 1:
					secs[i] = int64(x)
				case 2:
					nanos[i] = int64(x)
				}
			}
			continue
		}
		if num == reqEvents {
			events++
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return time.Time{}, 0, 0, false
		}
		b = b[n:]
	}
	return time.Unix(secs[0], int64(int32(nanos[0]))), time.Duration(secs[1])*time.Second + time.Duration(int32(nanos[1])), events, true
}
