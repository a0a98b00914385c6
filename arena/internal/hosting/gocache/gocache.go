// Package gocache is the Go build cache of hosted Go bots' builds: a GOCACHEPROG program
// (`tapp __gocacheprog`, the protocol of Go's cmd/go/internal/cacheprog) that the go command
// runs inside the build's sandbox. It answers from two layers:
//
//   - shared: compiled once by the arena from its own copy of the Go SDK and the modules the
//     SDK needs (gRPC, protobuf, …) and the standard library: trusted, and bound into every
//     author's build read-only, so that no build can write it;
//   - own: the bot's own layer, writable, where everything else the build compiles goes
//     (the author's packages, a dependency of its own). No other bot reads it.
//
// A lookup takes the shared layer first, so an entry of the bot's own layer never stands in
// for one of the arena's. An author's build then compiles only the author's packages and links:
// seconds instead of minutes for gRPC.
package gocache

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Command is the tapp binary's hidden command that runs Main.
const Command = "__gocacheprog"

// The protocol's commands (cmd/go/internal/cacheprog).
const (
	cmdGet   = "get"
	cmdPut   = "put"
	cmdClose = "close"
)

// request is one message of the go command.
type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

// response is one answer to the go command.
type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// entry is what a layer keeps under an action id.
type entry struct {
	OutputID string // hex
	Size     int64
	Time     time.Time
}

// Layer is one folder of cache entries: a/XX/ACTION (the entry) and o/XX/OUTPUT (the body).
type Layer string

func (l Layer) entryPath(action []byte) string {
	h := hex.EncodeToString(action)
	return filepath.Join(string(l), "a", h[:2], h)
}

func (l Layer) bodyPath(output []byte) string {
	h := hex.EncodeToString(output)
	return filepath.Join(string(l), "o", h[:2], h)
}

// get returns the body's path and the entry of an action, or false.
func (l Layer) get(action []byte) (string, *entry, bool) {
	if len(action) == 0 {
		return "", nil, false
	}
	b, err := os.ReadFile(l.entryPath(action))
	if err != nil {
		return "", nil, false
	}
	var e entry
	if json.Unmarshal(b, &e) != nil {
		return "", nil, false
	}
	out, err := hex.DecodeString(e.OutputID)
	if err != nil || len(out) == 0 {
		return "", nil, false
	}
	path := l.bodyPath(out)
	if fi, err := os.Stat(path); err != nil || fi.Size() != e.Size {
		return "", nil, false // a body cut short (a full disk) is a miss, not a broken build
	}
	return path, &e, true
}

// put stores a body under an output id and the entry under the action id.
func (l Layer) put(action, output, body []byte) (string, error) {
	if len(action) == 0 || len(output) == 0 {
		return "", errors.New("put without an action or output id")
	}
	path := l.bodyPath(output)
	if fi, err := os.Stat(path); err != nil || fi.Size() != int64(len(body)) {
		if err := writeAtomic(path, body); err != nil {
			return "", err
		}
	}
	e, err := json.Marshal(entry{OutputID: hex.EncodeToString(output), Size: int64(len(body)), Time: time.Now().UTC()})
	if err != nil {
		return "", err
	}
	return path, writeAtomic(l.entryPath(action), e)
}

// writeAtomic writes a file whole or not at all (a build stopped halfway leaves no torn entry).
func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}

// Cache answers the go command from the layers: Shared (read-only; may be empty) first,
// then Own, where every put goes.
type Cache struct {
	Shared Layer
	Own    Layer
	// Hits and Misses count the gets answered, per layer (shared, own) and missed.
	SharedHits, OwnHits, Misses int
}

func (c *Cache) get(action []byte) response {
	if c.Shared != "" {
		if path, e, ok := c.Shared.get(action); ok {
			c.SharedHits++
			return hit(path, e)
		}
	}
	if path, e, ok := c.Own.get(action); ok {
		c.OwnHits++
		return hit(path, e)
	}
	c.Misses++
	return response{Miss: true}
}

func hit(path string, e *entry) response {
	out, _ := hex.DecodeString(e.OutputID)
	t := e.Time
	return response{OutputID: out, Size: e.Size, Time: &t, DiskPath: path}
}

// Serve speaks the protocol on in and out until the go command closes it.
func (c *Cache) Serve(in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	send := func(r response) error {
		if err := enc.Encode(r); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := send(response{KnownCommands: []string{cmdGet, cmdPut, cmdClose}}); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReader(in))
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading the go command's request: %w", err)
		}
		var r response
		switch req.Command {
		case cmdGet:
			r = c.get(req.ActionID)
		case cmdPut:
			var body []byte
			if req.BodySize > 0 {
				if err := dec.Decode(&body); err != nil {
					return fmt.Errorf("reading the body of put %d: %w", req.ID, err)
				}
			}
			if int64(len(body)) != req.BodySize {
				r.Err = fmt.Sprintf("put %d: a body of %d bytes, announced %d", req.ID, len(body), req.BodySize)
				break
			}
			path, err := c.Own.put(req.ActionID, req.OutputID, body)
			if err != nil {
				r.Err = err.Error()
			}
			r.DiskPath = path
		case cmdClose:
			r.ID = req.ID
			return send(r)
		default:
			r.Err = fmt.Sprintf("unknown command %q", req.Command)
		}
		r.ID = req.ID
		if err := send(r); err != nil {
			return err
		}
	}
}

// Main is `tapp __gocacheprog --own DIR [--shared DIR]`: the GOCACHEPROG of a hosted Go
// build. At its end it writes one line to stderr (the build's log) saying what the shared
// layer saved.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(Command, flag.ContinueOnError)
	fs.SetOutput(stderr)
	own := fs.String("own", "", "the writable layer (the bot's own)")
	shared := fs.String("shared", "", "the read-only layer the arena compiled (optional)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *own == "" {
		fmt.Fprintln(stderr, "gocacheprog: --own is required")
		return 2
	}
	c := &Cache{Shared: Layer(*shared), Own: Layer(*own)}
	err := c.Serve(stdin, stdout)
	if c.Shared != "" {
		fmt.Fprintf(stderr, "build cache: %d lookups answered by the arena's shared layer, %d by the bot's own, %d missed\n",
			c.SharedHits, c.OwnHits, c.Misses)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gocacheprog: %v\n", err)
		return 1
	}
	return 0
}
