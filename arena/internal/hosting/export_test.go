package hosting

import "github.com/tapparena/tapp/arena/internal/sandbox"

// GoBuildSpec is the sandbox spec of a Go build of a with the bot's cache folder and the
// shared layer (goSpec), for the escape suite to run its own program in a build's place.
func (b *Builder) GoBuildSpec(a *Artifact, cache, shared string) (sandbox.Spec, error) {
	root, err := b.goRoot()
	if err != nil {
		return sandbox.Spec{}, err
	}
	return b.goSpec(a, root, cache, shared)
}
