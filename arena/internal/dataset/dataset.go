// Package dataset writes stored deals as an open dataset for training and research: Parquet
// files of the deals (cards, moves, settlement, rule set, bots, commitment) and of every
// decision with the observation of the seat that made it (exactly what the arena sent it).
// docs/dataset.md documents every column. Deals are read one at a time, so a night's ladder
// is exported in memory that does not grow with it.
package dataset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/notation"
	"github.com/tapparena/tapp/engine"
)

// Version is the dataset format; every file carries it as the key-value metadata
// "tapp.dataset".
const Version = "1"

// The files of a dataset, in its folder.
const (
	DealsFile     = "deals.parquet"
	DecisionsFile = "decisions.parquet"
)

// Store is what an export reads; arena/internal/store.Store has all of it.
type Store interface {
	GetMatch(ctx context.Context, id string) (*domain.Match, error)
	DealNumbers(ctx context.Context, matchID string) ([]int, error)
	Deal(ctx context.Context, matchID string, number int) (*domain.DealRecord, error)
}

// Options change an export.
type Options struct {
	// Anonymise replaces every bot name by bot-1, bot-2, … in the order the export meets them
	// (the same name, the same pseudonym, throughout one export).
	Anonymise bool
	// Progress, when set, is called after each deal with the number of deals written.
	Progress func(done int)
	// Source names what was exported (a league, a match) in the files' metadata.
	Source string
}

// Summary says what an export wrote.
type Summary struct {
	Matches, Deals, Decisions int
	Dir                       string
}

// batch is how many rows are buffered before they go to a writer.
const batch = 512

// Export writes the stored deals of the matches, in order, as a dataset in the folder dir
// (created if need be): DealsFile and DecisionsFile. The files appear only when complete:
// they are written under temporary names and renamed at the end.
func Export(ctx context.Context, st Store, matchIDs []string, dir string, o Options) (Summary, error) {
	sum := Summary{Dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return sum, err
	}
	meta := []parquet.WriterOption{
		parquet.KeyValueMetadata("tapp.dataset", Version),
		parquet.KeyValueMetadata("tapp.source", o.Source),
		parquet.KeyValueMetadata("tapp.anonymised", fmt.Sprint(o.Anonymise)),
		parquet.KeyValueMetadata("tapp.exported", time.Now().UTC().Format(time.RFC3339)),
		parquet.KeyValueMetadata("tapp.notation", notation.JSONFormat),
		parquet.Compression(&zstd.Codec{}),
		parquet.CreatedBy("tapp", Version, ""),
	}
	deals, err := newFile[DealRow](filepath.Join(dir, DealsFile), meta)
	if err != nil {
		return sum, err
	}
	defer deals.abort()
	decisions, err := newFile[DecisionRow](filepath.Join(dir, DecisionsFile), meta)
	if err != nil {
		return sum, err
	}
	defer decisions.abort()
	names := &pseudonyms{on: o.Anonymise, of: map[string]string{}}
	for _, id := range matchIDs {
		m, err := st.GetMatch(ctx, id)
		if err != nil {
			return sum, err
		}
		nums, err := st.DealNumbers(ctx, id)
		if err != nil {
			return sum, err
		}
		sum.Matches++
		for _, n := range nums {
			if err := ctx.Err(); err != nil {
				return sum, err
			}
			rec, err := st.Deal(ctx, id, n)
			if err != nil {
				return sum, err
			}
			d, ds, err := rows(m, rec, names)
			if err != nil {
				return sum, fmt.Errorf("match %s, deal %d: %w", id, n, err)
			}
			if err := deals.add(d); err != nil {
				return sum, err
			}
			for _, x := range ds {
				if err := decisions.add(x); err != nil {
					return sum, err
				}
			}
			sum.Deals++
			sum.Decisions += len(ds)
			if o.Progress != nil {
				o.Progress(sum.Deals)
			}
		}
	}
	if err := deals.finish(); err != nil {
		return sum, err
	}
	return sum, decisions.finish()
}

// pseudonyms anonymises bot names in the order they are met.
type pseudonyms struct {
	on bool
	of map[string]string
}

func (p *pseudonyms) name(bot string) string {
	if !p.on || bot == "" {
		return bot
	}
	if s, ok := p.of[bot]; ok {
		return s
	}
	s := fmt.Sprintf("bot-%d", len(p.of)+1)
	p.of[bot] = s
	return s
}

func (p *pseudonyms) names(bots []string) []string {
	out := make([]string, len(bots))
	for i, b := range bots {
		out[i] = p.name(b)
	}
	return out
}

// file is one Parquet file being written, rows buffered in batches.
type file[T any] struct {
	path, tmp string
	f         *os.File
	w         *parquet.GenericWriter[T]
	buf       []T
	done      bool
}

func newFile[T any](path string, opts []parquet.WriterOption) (*file[T], error) {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return nil, err
	}
	return &file[T]{path: path, tmp: tmp, f: f, w: parquet.NewGenericWriter[T](f, opts...)}, nil
}

func (x *file[T]) add(row T) error {
	x.buf = append(x.buf, row)
	if len(x.buf) < batch {
		return nil
	}
	return x.flush()
}

func (x *file[T]) flush() error {
	if len(x.buf) == 0 {
		return nil
	}
	_, err := x.w.Write(x.buf)
	clear(x.buf)
	x.buf = x.buf[:0]
	return err
}

func (x *file[T]) finish() error {
	err := errors.Join(x.flush(), x.w.Close(), x.f.Sync(), x.f.Close())
	if err != nil {
		return fmt.Errorf("writing %s: %w", x.path, err)
	}
	x.done = true
	return os.Rename(x.tmp, x.path)
}

// abort removes an unfinished file.
func (x *file[T]) abort() {
	if !x.done {
		x.f.Close()
		os.Remove(x.tmp)
	}
}

func cardNames(s engine.CardSet) []string {
	out := make([]string, 0, s.Len())
	for _, c := range s.Cards(nil) {
		out = append(out, c.String())
	}
	return out
}

func suitText(s engine.Suit) string {
	if s < engine.NumSuits {
		return s.String()
	}
	return ""
}

func contractText(c engine.Contract) string {
	if c == engine.NoContract {
		return ""
	}
	return c.String()
}

func voidsText(v engine.Suits) string {
	var b strings.Builder
	for s := engine.Suit(0); s < engine.NumSuits; s++ {
		if v.Has(s) {
			b.WriteString(s.String())
		}
	}
	return b.String()
}
