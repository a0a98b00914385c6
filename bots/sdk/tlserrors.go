package sdk

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/grpc/status"
)

// ConnectProblem is a mistake in how a client reaches an arena that trying again cannot mend:
// TLS on one side and not on the other, or a certificate the client cannot trust. Each names
// what to change; callers say it with their own flags (ConnectProblem.Fix).
type ConnectProblem int

// The connection problems.
const (
	// NoConnectProblem: the error is not one of these (the arena may be down: try again).
	NoConnectProblem ConnectProblem = iota
	// PlainToTLS: the arena serves TLS, the client speaks plain text.
	PlainToTLS
	// TLSToPlain: the client speaks TLS, the arena serves plain text.
	TLSToPlain
	// UntrustedCertificate: the arena's certificate is signed by a CA the client does not
	// trust (a private CA, a self-signed arena).
	UntrustedCertificate
	// WrongName: the arena's certificate is for another host name than the one dialled.
	WrongName
	// ExpiredCertificate: the arena's certificate has expired or is not valid yet.
	ExpiredCertificate
)

// Flags name, for a front end, how its user turns TLS on and gives a CA file.
type Flags struct {
	TLS string // "--tls", "TAPP_TLS=1 (Config.TLS)"
	CA  string // "--ca FILE", "TAPP_CA=FILE (Config.CA)"
}

// SDKFlags are how a bot on the Go SDK says it: the environment a league gives it, or its Config.
var SDKFlags = Flags{TLS: "TAPP_TLS=1 (Config.TLS)", CA: "TAPP_CA=FILE (Config.CA)"}

// Fix says what is wrong and what to change, in the front end's terms.
func (p ConnectProblem) Fix(f Flags) string {
	switch p {
	case PlainToTLS:
		return fmt.Sprintf("the arena serves TLS but this client connects in plain text: connect with %s, or %s when the arena's certificate comes from a private CA", f.TLS, f.CA)
	case TLSToPlain:
		return fmt.Sprintf("this client connects with TLS (%s or %s) but the arena serves plain text: leave them out, or serve the arena with --tls-cert and --tls-key", f.TLS, f.CA)
	case UntrustedCertificate:
		return fmt.Sprintf("the arena's certificate is signed by a CA this client does not trust: give the CA's certificate with %s", f.CA)
	case WrongName:
		return "the arena's certificate is for another name than the address dialled: connect with a host name the certificate names"
	case ExpiredCertificate:
		return "the arena's certificate has expired (or is not valid yet): the arena needs a new one, or the clocks disagree"
	}
	return ""
}

// ConnectProblemOf classifies an error from connecting to an arena.
func ConnectProblemOf(err error) ConnectProblem {
	if err == nil {
		return NoConnectProblem
	}
	text := err.Error()
	if s, ok := status.FromError(err); ok {
		text = s.Message()
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		text += " " + e.Error()
	}
	switch {
	case strings.Contains(text, "first record does not look like a TLS handshake"):
		return TLSToPlain
	case strings.Contains(text, "x509: certificate signed by unknown authority"),
		strings.Contains(text, "certificate is not trusted"),
		strings.Contains(text, "x509: certificate is not standards compliant"):
		return UntrustedCertificate
	case strings.Contains(text, "x509: certificate is valid for"),
		strings.Contains(text, "x509: certificate is not valid for any names"):
		return WrongName
	case strings.Contains(text, "x509: certificate has expired or is not yet valid"):
		return ExpiredCertificate
	// A plain-text client's HTTP/2 preface is not a TLS handshake: the arena's TLS listener
	// answers it with an HTTP/1.1 error (as TLS-terminating proxies do); other TLS servers
	// close before any HTTP/2 frame.
	case strings.Contains(text, "looked like an HTTP/1.1 header"),
		strings.Contains(text, "error reading server preface"),
		strings.Contains(text, "connection closed before server preface received"):
		return PlainToTLS
	}
	return NoConnectProblem
}

// connectProblemTries is how often a connection that fails with a ConnectProblem is tried
// before the client gives up: it will not mend, but one failure may be a server that was
// starting up.
const connectProblemTries = 3
