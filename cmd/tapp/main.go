// Command tapp is Tapp Arena's one binary: it serves the arena, runs matches and leagues,
// runs built-in bots, prints ratings, and replays matches. Run `tapp help` for the commands;
// they live in arena/internal/cli behind the one entry point arena/cli.Main.
package main

import (
	"os"

	"github.com/tapparena/tapp/arena/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
