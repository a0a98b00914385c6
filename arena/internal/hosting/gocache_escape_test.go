package hosting_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/launch"
)

// The shared Go build cache is bound into every author's build read-only: a build that
// tries to change it (overwrite an entry, plant one, remove or rename one, change its
// mode) fails at each, under every sandbox present, and the layer is as it was. Its files
// are left writable by everyone here, so that only the sandbox's read-only bind stands in
// the way (the arena also seals them, sealTree).
func TestABuildCannotWriteTheSharedGoCache(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, sb := range sandboxes(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := openDir(t)
			shared := filepath.Join(dir, "shared")
			entry := filepath.Join(shared, "a", "ab", "abcd")
			if err := os.MkdirAll(filepath.Dir(entry), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(entry, []byte("the arena's"), 0o666); err != nil {
				t.Fatal(err)
			}
			for _, d := range []string{shared, filepath.Dir(filepath.Dir(entry)), filepath.Dir(entry)} {
				_ = os.Chmod(d, 0o777) // past the umask
			}
			_ = os.Chmod(entry, 0o666)
			a, _ := hostileArtifact(t, dir)
			cache := filepath.Join(dir, "cache")
			if err := os.MkdirAll(cache, 0o777); err != nil {
				t.Fatal(err)
			}
			_ = os.Chmod(cache, 0o777)
			b := &hosting.Builder{Sandbox: sb, Dir: dir, Tool: exe}
			spec, err := b.GoBuildSpec(a, cache, shared)
			if err != nil {
				t.Fatal(err)
			}
			spec.Command = []string{"/build/bot"} // in the go command's place: the hostile program
			spec.Env = append(spec.Env, "TAPP_HOSTILE=poison-cache")
			ls, err := sb.Launch(spec)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			ls.Name, ls.Once, ls.Output = "poison", true, &out
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			p, err := launch.Start(ctx, ls, nil)
			if err != nil {
				t.Fatal(err)
			}
			<-p.Done()
			log := out.String()
			for _, attempt := range []string{"overwrite", "plant", "remove", "rename", "chmod"} {
				if !strings.Contains(log, "escape poison-cache-"+attempt+": blocked") {
					t.Errorf("attempt %s not blocked:\n%s", attempt, log)
				}
			}
			if strings.Contains(log, "ESCAPED") {
				t.Errorf("a write reached the shared cache:\n%s", log)
			}
			if b, err := os.ReadFile(entry); err != nil || string(b) != "the arena's" {
				t.Errorf("the shared entry is now %q, %v", b, err)
			}
			if entries, _ := os.ReadDir(filepath.Dir(entry)); len(entries) != 1 {
				t.Errorf("the shared layer's folder holds %d entries, want its one", len(entries))
			}
		})
	}
}

// poisonCache is the hostile mode poison-cache: a build that tries to change the shared
// layer bound at /gocache-shared.
func poisonCache() int {
	entry := "/gocache-shared/a/ab/abcd"
	report := func(name string, err error) {
		if err != nil {
			fmt.Fprintf(os.Stderr, "escape poison-cache-%s: blocked: %v\n", name, err)
		} else {
			fmt.Fprintf(os.Stderr, "escape poison-cache-%s: ESCAPED\n", name)
		}
	}
	report("overwrite", os.WriteFile(entry, []byte("the author's"), 0o666))
	report("plant", os.WriteFile("/gocache-shared/a/ab/planted", []byte("the author's"), 0o666))
	report("remove", os.Remove(entry))
	report("rename", os.Rename(entry, entry+"-moved"))
	report("chmod", os.Chmod(entry, 0o600))
	return 0
}
