package cli

import (
	"flag"
	"strconv"

	"google.golang.org/grpc/credentials"

	"github.com/tapparena/tapp/bots/sdk"
)

// clientTLS are the flags of a command that connects to an arena: TLS with the system's
// roots (--tls) or with a CA file (--ca), as the SDKs take them (TAPP_TLS, TAPP_CA).
type clientTLS struct {
	on bool
	ca string
}

func (m *Main) clientTLSFlags(fs *flag.FlagSet) *clientTLS {
	c := &clientTLS{}
	on, _ := strconv.ParseBool(m.Getenv("TAPP_TLS"))
	fs.BoolVar(&c.on, "tls", on, "connect to the arena with TLS, checking its certificate against the system's roots (env TAPP_TLS=1)")
	fs.StringVar(&c.ca, "ca", m.Getenv("TAPP_CA"), "PEM file of the CA that signed the arena's certificate; implies --tls (env TAPP_CA)")
	return c
}

func (c *clientTLS) credentials() (credentials.TransportCredentials, error) {
	return sdk.TransportCredentials(c.on, c.ca)
}

// cliTLSFlags are how a tapp command says what to change when TLS does not fit the arena's.
var cliTLSFlags = sdk.Flags{TLS: "--tls (TAPP_TLS=1)", CA: "--ca FILE (TAPP_CA)"}
