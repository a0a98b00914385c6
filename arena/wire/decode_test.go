package wire

import (
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/encode/encodetest"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// reference reads a request the plain way: proto.Unmarshal, then ObservationFromProto.
func reference(b []byte) (*DecodedRequest, error) {
	req := &tappv1.DecisionRequest{}
	if err := proto.Unmarshal(b, req); err != nil {
		return nil, err
	}
	return RequestFromProto(req), nil
}

// sameDecoding reports whether the fast decoder and the reference agree on b: both refuse
// it, or both read the same request (an unreadable observation counts as the same whatever
// the wording of the error).
func sameDecoding(t *testing.T, b []byte) {
	t.Helper()
	got, gotErr := DecodeRequest(b)
	want, wantErr := reference(b)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%x: DecodeRequest error %v, reference error %v", b, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	if (got.Err != nil) != (want.Err != nil) {
		t.Fatalf("%x: observation error %v, reference %v", b, got.Err, want.Err)
	}
	got.Err, want.Err = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%x: decoded\n%+v\nwant\n%+v", b, got, want)
	}
}

// encodedRequests are the requests of every decision of random deals of every variant, with
// the events sent along, as the referee encodes them.
func encodedRequests(t testing.TB, deals int) [][]byte {
	var out [][]byte
	encodetest.EachRequest(t, deals, func(rr encodetest.Request) { out = append(out, encode.AppendRequest(nil, rr.Req)) })
	return out
}

// A Go bot reads every request exactly as the reference path reads it, and on the fast path.
func TestDecodeRequestIsTheReference(t *testing.T) {
	t.Parallel()
	for _, b := range encodedRequests(t, 30) {
		if _, fast := decodeRequestFast(b); !fast {
			t.Fatalf("%x: the arena's own encoding took the slow path", b)
		}
		sameDecoding(t, b)
		r, err := DecodeRequest(b)
		if err != nil || r.Err != nil || r.Observation == nil {
			t.Fatalf("%x: %v %v", b, err, r.Err)
		}
	}
}

// A Go bot reads the bank left (overage_left) as the referee sent it, on the fast path.
func TestDecodeRequestReadsTheBank(t *testing.T) {
	t.Parallel()
	seen := 0
	encodetest.EachRequest(t, 2, func(rr encodetest.Request) {
		r, ok := decodeRequestFast(encode.AppendRequest(nil, rr.Req))
		if !ok {
			t.Fatal("the arena's own encoding took the slow path")
		}
		if r.OverageLeft != rr.Req.OverageLeft {
			t.Fatalf("bank %v, sent %v", r.OverageLeft, rr.Req.OverageLeft)
		}
		if r.OverageLeft != 0 {
			seen++
		}
	})
	if seen == 0 {
		t.Fatal("no request with a bank: the test checks nothing")
	}
}

// Whatever the bytes, the fast decoder never panics and never disagrees with the reference.
func FuzzDecodeRequest(f *testing.F) {
	for i, b := range encodedRequests(f, 2) {
		if i%5 == 0 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameDecoding(t, b)
	})
}

// Damaged requests: every single byte changed in a few ways, and every truncation.
func TestDecodeRequestOfDamagedBytes(t *testing.T) {
	t.Parallel()
	reqs := encodedRequests(t, 1)
	for i, b := range reqs {
		if i%7 != 0 {
			continue
		}
		for pos := range b {
			for _, x := range []byte{0x00, 0xFF, b[pos] ^ 0x01, b[pos] + 1} {
				d := append([]byte(nil), b...)
				d[pos] = x
				sameDecoding(t, d)
			}
			sameDecoding(t, b[:pos])
		}
	}
}
