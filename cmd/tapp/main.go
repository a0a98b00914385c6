// Command tapp is Tapp Arena's one binary: it serves the arena, runs matches and leagues,
// runs built-in bots, prints ratings, and replays matches. Run `tapp help` for the commands;
// the commands live in arena/cli, so that everything but the engine and the SDKs stays
// internal to the arena.
package main

import "github.com/tapparena/tapp/arena/cli"

func main() { cli.Execute() }
