package protoappend

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Each helper writes field 1 as proto.Marshal writes the matching wrapper message, zero
// values left out.
func TestFieldsAreProtoMarshal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		got  []byte
		want proto.Message
	}{
		{"string", String(nil, 1, "HA"), wrapperspb.String("HA")},
		{"empty string", String(nil, 1, ""), wrapperspb.String("")},
		{"bytes", Bytes(nil, 1, []byte{0, 1, 2}), wrapperspb.Bytes([]byte{0, 1, 2})},
		{"no bytes", Bytes(nil, 1, nil), wrapperspb.Bytes(nil)},
		{"int", Int(nil, 1, 300), wrapperspb.Int64(300)},
		{"negative int", Int(nil, 1, -7), wrapperspb.Int64(-7)},
		{"negative int32", Int(nil, 1, -7), wrapperspb.Int32(-7)},
		{"zero int", Int(nil, 1, 0), wrapperspb.Int64(0)},
		{"true", Bool(nil, 1, true), wrapperspb.Bool(true)},
		{"false", Bool(nil, 1, false), wrapperspb.Bool(false)},
	}
	for _, tt := range tests {
		want, err := proto.MarshalOptions{Deterministic: true}.Marshal(tt.want)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(tt.got, want) {
			t.Errorf("%s: % x, want % x", tt.name, tt.got, want)
		}
	}
	if got := Text(nil, 2, ""); !bytes.Equal(got, []byte{2<<3 | 2, 0}) {
		t.Errorf("Text of an empty element: % x, want it written", got)
	}
}

// Close moves a message's contents when its length takes more than one byte.
func TestCloseLongContents(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 1, 127, 128, 300, 16383, 16384, 70000} {
		b, m := Open([]byte{0xAA}, 3)
		body := bytes.Repeat([]byte{'x'}, size)
		b = Close(append(b, body...), m)
		want := append([]byte{0xAA}, marshalBytesField(3, body)...)
		if !bytes.Equal(b, want) {
			t.Errorf("size %d: %x…, want %x…", size, b[:min(len(b), 8)], want[:min(len(want), 8)])
		}
		b, m = OpenLong([]byte{0xAA}, 3)
		b = CloseLong(append(b, body...), m)
		if !bytes.Equal(b, want) {
			t.Errorf("size %d, OpenLong: %x…, want %x…", size, b[:min(len(b), 8)], want[:min(len(want), 8)])
		}
	}
}

// A field numbered 16 or more takes a tag of two bytes.
func TestHighFieldNumbers(t *testing.T) {
	t.Parallel()
	if got, want := Int(nil, 27, 5), []byte{27<<3&0x7f | 0x80, 27 >> 4, 5}; !bytes.Equal(got, want) {
		t.Errorf("field 27: % x, want % x", got, want)
	}
	b, m := Open(nil, 20)
	if got, want := Close(Text(b, 1, "HA"), m), []byte{20<<3&0x7f | 0x80 | 2, 20 >> 4, 4, 1<<3 | 2, 2, 'H', 'A'}; !bytes.Equal(got, want) {
		t.Errorf("message 20: % x, want % x", got, want)
	}
}

func marshalBytesField(num int, body []byte) []byte {
	b := []byte{byte(num<<3 | 2)}
	n := uint64(len(body))
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return append(append(b, byte(n)), body...)
}
