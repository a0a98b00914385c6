package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// handshakeLog wraps the server's transport credentials so that a connection refused at the
// transport is logged with what the client should change: a plain-text client at a TLS arena,
// a TLS client at a plain-text arena, a client that does not trust the certificate. gRPC
// itself only drops such connections. Lines are limited to one per handshakeLogEvery, with
// the count of those left out.
type handshakeLog struct {
	credentials.TransportCredentials
	tls bool
	log *zap.Logger

	mu      sync.Mutex
	last    map[string]time.Time // by fix: the same mistake is logged once per handshakeLogEvery
	skipped map[string]int
}

const handshakeLogEvery = 10 * time.Second

// loggedCredentials returns creds (nil: plain text) that log refused handshakes to log.
func loggedCredentials(creds credentials.TransportCredentials, log *zap.Logger) credentials.TransportCredentials {
	if creds == nil {
		return &handshakeLog{TransportCredentials: insecure.NewCredentials(), log: log}
	}
	return &handshakeLog{TransportCredentials: creds, tls: true, log: log}
}

// ServerHandshake looks at the client's first byte: a TLS client starts with a handshake
// record (0x16), a plain-text HTTP/2 client with "PRI". One that does not fit the arena is
// logged and told in terms its library reports; a TLS handshake that fails is logged.
func (h *handshakeLog) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	br := bufio.NewReaderSize(raw, 64)
	first, err := br.Peek(1)
	peeked := &peekedConn{Conn: raw, r: br}
	switch {
	case err != nil:
		return h.TransportCredentials.ServerHandshake(peeked) // it reports the read error
	case h.tls && first[0] == http2Preface[0]:
		h.refused(raw, errors.New("the client spoke plain-text HTTP/2"), handshakeFix(errors.New("first record does not look like a TLS handshake")))
		tellPlainClient(raw)
		return nil, nil, errors.New("a plain-text client at a TLS arena")
	case !h.tls && first[0] == 0x16:
		h.refused(raw, errors.New("the client began a TLS handshake"),
			"this arena serves plain text: connect without --tls/--ca (TAPP_TLS, TAPP_CA), or serve the arena with --tls-cert and --tls-key")
		// A line of text where the client expects the server's TLS hello: its TLS library
		// then says that the server does not speak TLS, instead of a bare EOF.
		_ = raw.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = io.WriteString(raw, "this Tapp arena serves plain text, not TLS\r\n")
		return nil, nil, errors.New("a TLS handshake at a plain-text arena")
	}
	conn, info, err := h.TransportCredentials.ServerHandshake(peeked)
	if err != nil && h.tls {
		h.refused(raw, err, handshakeFix(err))
	}
	return conn, info, err
}

// http2Preface is what a plain-text gRPC client sends first.
const http2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// plainClientNotice is what a plain-text client at a TLS arena is answered: an HTTP/1.1 error
// where its HTTP/2 library expects the server's first frame, which gRPC libraries report as
// such ("an http1.x server", "looked like an HTTP/1.1 header") instead of a closed socket.
const plainClientNotice = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n" +
	"this Tapp arena serves TLS: connect with TLS (tapp: --tls, or --ca FILE for a private CA; SDKs: TAPP_TLS=1 or TAPP_CA=FILE)\n"

// tellPlainClient answers a plain-text client at a TLS arena.
func tellPlainClient(conn net.Conn) {
	_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = io.WriteString(conn, plainClientNotice)
}

// handshakeFix says what a client whose TLS handshake failed with err should change.
func handshakeFix(err error) string {
	text := err.Error()
	switch {
	case strings.Contains(text, "first record does not look like a TLS handshake"):
		return "the client connects in plain text: it needs --tls, or --ca FILE for this arena's CA (TAPP_TLS=1, TAPP_CA=FILE for the SDKs)"
	case strings.Contains(text, "bad certificate"), strings.Contains(text, "unknown certificate"), strings.Contains(text, "certificate"):
		return "the client does not trust this arena's certificate: give it the CA that signed it with --ca FILE (TAPP_CA=FILE)"
	}
	return "the client's TLS settings do not fit this arena's (--tls, --ca FILE; TAPP_TLS, TAPP_CA)"
}

func (h *handshakeLog) refused(raw net.Conn, err error, fix string) {
	if errors.Is(err, io.EOF) || errors.Is(err, context.DeadlineExceeded) {
		h.log.Debug("a connection closed during its handshake", zap.String("from", raw.RemoteAddr().String()), zap.Error(err))
		return
	}
	h.mu.Lock()
	if h.last == nil {
		h.last, h.skipped = map[string]time.Time{}, map[string]int{}
	}
	if time.Since(h.last[fix]) < handshakeLogEvery {
		h.skipped[fix]++
		h.mu.Unlock()
		return
	}
	skipped := h.skipped[fix]
	h.last[fix], h.skipped[fix] = time.Now(), 0
	h.mu.Unlock()
	fields := []zap.Field{zap.String("from", raw.RemoteAddr().String()), zap.Error(err), zap.String("fix", fix)}
	if skipped > 0 {
		fields = append(fields, zap.Int("more_refused_since_last_line", skipped))
	}
	h.log.Warn("refused a connection: its handshake failed", fields...)
}

// Clone keeps the logging.
func (h *handshakeLog) Clone() credentials.TransportCredentials {
	return &handshakeLog{TransportCredentials: h.TransportCredentials.Clone(), tls: h.tls, log: h.log}
}

// peekedConn is a connection whose first bytes were read into r.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(b []byte) (int, error) { return c.r.Read(b) }
