// Package protoappend writes protobuf fields in wire form by hand, for the few messages that
// are encoded often enough for protobuf's reflection to show in a profile (the bot stream's
// requests, the store's decision logs).
//
// Each helper appends one field and leaves out what proto3 leaves out: zero scalars, empty
// strings and bytes (but not empty messages, nor empty elements of a repeated field, which
// Text writes). Written in field-number order, the fields come out byte for byte as
// proto.Marshal writes them; the tests of the callers check that against the generated code.
package protoappend

import "google.golang.org/protobuf/encoding/protowire"

// String appends a string field, unless s is empty.
func String(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	return Text(b, num, s)
}

// Text appends s even when it is empty: an element of a repeated string.
func Text(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// Bytes appends a bytes field, unless v is empty.
func Bytes(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// Int appends an int32 or int64 field (negative values take ten bytes, as in protobuf),
// unless v is 0.
func Int(b []byte, num protowire.Number, v int64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

// Bool appends a bool field, unless v is false.
func Bool(b []byte, num protowire.Number, v bool) []byte {
	if !v {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return append(b, 1)
}

// Open starts an embedded message: its tag and a one-byte length to be fixed by Close,
// which moves the contents when the length needs more bytes. It returns where the contents
// start, for Close.
func Open(b []byte, num protowire.Number) ([]byte, int) {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = append(b, 0)
	return b, len(b)
}

// Close ends the embedded message whose contents start at start (from Open).
func Close(b []byte, start int) []byte {
	size := len(b) - start
	k := protowire.SizeVarint(uint64(size))
	if k == 1 {
		b[start-1] = byte(size)
		return b
	}
	b = append(b, make([]byte, k-1)...)
	copy(b[start-1+k:], b[start:start+size])
	protowire.AppendVarint(b[:start-1], uint64(size))
	return b
}
