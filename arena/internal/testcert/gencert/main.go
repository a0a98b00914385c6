// Command gencert writes a throwaway self-signed TLS certificate for localhost (cert.pem,
// key.pem) into the folder it is given, for tests outside Go (the Python SDK's TLS test).
package main

import (
	"fmt"
	"os"

	"github.com/tapparena/tapp/arena/internal/testcert"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gencert DIR")
		os.Exit(2)
	}
	if _, err := testcert.Write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gencert:", err)
		os.Exit(1)
	}
}
