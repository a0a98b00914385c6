// Package cli is the one entry point of the tapp command: cmd/tapp calls Main. The commands
// themselves, and everything else of the arena, live under arena/internal.
package cli

import "github.com/tapparena/tapp/arena/internal/cli"

// Main runs the tapp command line args (without the program's name) and returns the exit
// status.
func Main(args []string) int { return cli.Execute(args) }
