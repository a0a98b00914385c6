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
	b = tag(b, num, protowire.BytesType)
	b = uvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Bytes appends a bytes field, unless v is empty.
func Bytes(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = tag(b, num, protowire.BytesType)
	b = uvarint(b, uint64(len(v)))
	return append(b, v...)
}

// Int appends an int32 or int64 field (negative values take ten bytes, as in protobuf),
// unless v is 0.
func Int(b []byte, num protowire.Number, v int64) []byte {
	if v == 0 {
		return b
	}
	b = tag(b, num, protowire.VarintType)
	return uvarint(b, uint64(v))
}

// Bool appends a bool field, unless v is false.
func Bool(b []byte, num protowire.Number, v bool) []byte {
	if !v {
		return b
	}
	b = tag(b, num, protowire.VarintType)
	return append(b, 1)
}

// Open starts an embedded message: its tag and a one-byte length to be fixed by Close,
// which moves the contents when the length needs more bytes. It returns where the contents
// start, for Close.
func Open(b []byte, num protowire.Number) ([]byte, int) {
	b = tag(b, num, protowire.BytesType)
	b = append(b, 0)
	return b, len(b)
}

// Close ends the embedded message whose contents start at start (from Open).
func Close(b []byte, start int) []byte {
	size := len(b) - start
	if size < 0x80 {
		b[start-1] = byte(size)
		return b
	}
	k := protowire.SizeVarint(uint64(size))
	b = append(b, make([]byte, k-1)...)
	copy(b[start-1+k:], b[start:start+size])
	protowire.AppendVarint(b[:start-1], uint64(size))
	return b
}

// OpenLong is Open for a message that is most often 128 bytes to 16 KiB long (a bot's
// observation): it keeps two bytes for the length, so that CloseLong moves the contents
// only when they are shorter or longer than that.
func OpenLong(b []byte, num protowire.Number) ([]byte, int) {
	b = tag(b, num, protowire.BytesType)
	b = append(b, 0, 0)
	return b, len(b)
}

// CloseLong ends the embedded message whose contents start at start (from OpenLong), its
// length in as few bytes as proto.Marshal writes.
func CloseLong(b []byte, start int) []byte {
	size := len(b) - start
	switch k := protowire.SizeVarint(uint64(size)); k {
	case 2:
		b[start-2], b[start-1] = byte(size)|0x80, byte(size>>7)
		return b
	case 1:
		b[start-2] = byte(size)
		copy(b[start-1:], b[start:])
		return b[:len(b)-1]
	default:
		b = append(b, make([]byte, k-2)...)
		copy(b[start-2+k:], b[start:start+size])
		protowire.AppendVarint(b[:start-2], uint64(size))
		return b
	}
}

// tag appends a field's tag: one byte for the fields numbered below 16, two below 2048 (all
// of the arena's), written here rather than by protowire.AppendVarint's general loop.
func tag(b []byte, num protowire.Number, typ protowire.Type) []byte {
	return uvarint(b, uint64(num)<<3|uint64(typ))
}

// uvarint appends v as a varint: most of what the arena writes (tags, lengths of short
// strings, seats, counts) takes one or two bytes, the cases taken first here.
func uvarint(b []byte, v uint64) []byte {
	switch {
	case v < 1<<7:
		return append(b, byte(v))
	case v < 1<<14:
		return append(b, byte(v)|0x80, byte(v>>7))
	}
	return protowire.AppendVarint(b, v)
}
