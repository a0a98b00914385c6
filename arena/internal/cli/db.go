package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/store"
)

const dbUsage = `tapp db check [--db DSN] [--json]     check the store: pages, every match, the aggregates
tapp db backup FILE [--db DSN]        copy a SQLite store, in use or not, to a new FILE
tapp db restore BACKUP [--db DSN]     put a backup in place of the store (the old file is kept aside)
tapp db migrate [--db DSN]            bring the store to this build's schema`

// db dispatches the database subcommands.
func (m *Main) db(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("%s", dbUsage)
	}
	switch args[0] {
	case "check":
		return m.dbCheck(ctx, args[1:])
	case "backup":
		return m.dbBackup(ctx, args[1:])
	case "restore":
		return m.dbRestore(ctx, args[1:])
	case "migrate":
		return m.dbMigrate(ctx, args[1:])
	}
	if helpFlag(args[0]) {
		fmt.Fprintf(m.Stdout, "%s\n(tapp db SUBCOMMAND -h lists its flags)\n", dbUsage)
		return nil
	}
	return usagef("unknown db subcommand %q\n%s", args[0], dbUsage)
}

func (m *Main) dbCheck(ctx context.Context, args []string) error {
	fs := m.flags("db check", "[flags]\n\nChecks the database's pages (SQLite's integrity_check), every match against its commitment,\n"+
		"its manifest and the chain of its deals, and the running totals and leaderboard sums against a\n"+
		"recomputation from the stored deals; prints what it found and exits 1 on any problem.")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("usage: %s", "tapp db check [--db DSN] [--json]")
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	schema, err := st.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	var step string
	var show func(int)
	c, err := app.CheckStore(ctx, st, func(what string, done, total int) {
		if what != step {
			if show != nil {
				show(-1)
			}
			step, show = what, m.progress(total, what)
		}
		show(done)
	})
	if show != nil {
		show(-1)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"db": *dsn, "backend": st.Backend(), "schema": schema, "ok": c.OK(), "check": c}); err != nil {
			return err
		}
	} else {
		m.printCheck(c, *dsn, st.Backend(), schema)
	}
	if !c.OK() {
		n := len(c.Problems) + len(c.Integrity.Problems)
		return fmt.Errorf("db check: %d problem(s) in %s", n, *dsn)
	}
	return nil
}

// printCheck prints a store check for a reader.
func (m *Main) printCheck(c *app.StoreCheck, dsn, backend string, schema int) {
	w := m.Stdout
	fmt.Fprintf(w, "tapp db check: %s (%s, schema %d)\n", dsn, backend, schema)
	pages := "ok"
	if len(c.Integrity.Problems) > 0 {
		pages = fmt.Sprintf("DAMAGED: %d finding(s)", len(c.Integrity.Problems))
	}
	fmt.Fprintf(w, "  pages        %s (%s)\n", pages, c.Integrity.Method)
	fmt.Fprintf(w, "  matches      %d checked: %d proven complete, %d running or stopped; %d deal(s) read\n",
		c.Matches, c.Complete, c.Unfinished, c.Deals)
	fmt.Fprintf(w, "  leagues      %d: running totals and jobs compared with their stored deals\n", c.Leagues)
	fmt.Fprintln(w, "  leaderboard  its kept sums compared with a recomputation from the stored deals")
	if len(c.Integrity.Problems) > 0 {
		fmt.Fprintf(w, "\nthe database's own check (%s):\n", c.Integrity.Method)
		for _, p := range c.Integrity.Problems {
			fmt.Fprintln(w, "  "+p)
		}
	}
	if len(c.Problems) > 0 {
		fmt.Fprintf(w, "\nproblems (%d):\n", len(c.Problems))
		for _, p := range c.Problems {
			fmt.Fprintln(w, "  "+p)
		}
	}
	if notes := append(c.Integrity.Notes, c.Notes...); len(notes) > 0 {
		fmt.Fprintln(w, "\nnotes:")
		for _, n := range notes {
			fmt.Fprintln(w, "  "+n)
		}
	}
	if c.OK() {
		fmt.Fprintln(w, "\nno problem found")
		return
	}
	fmt.Fprintf(w, "\nthe way back: restore the last backup (tapp db restore BACKUP --db %s); keep backups with tapp db backup\n", dsn)
}

func (m *Main) dbBackup(ctx context.Context, args []string) error {
	fs := m.flags("db backup", "FILE [flags]\n\nCopies a SQLite store to a new FILE through SQLite's online backup: the store may be in use\n"+
		"(a league keeps playing). The copy is checked before it takes its name; nothing is overwritten.")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: tapp db backup FILE [--db DSN]")
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	var show func(int)
	err = st.Backup(ctx, pos[0], func(done, total int) {
		if show == nil {
			show = m.progress(total, "pages")
		}
		show(done)
	})
	if show != nil {
		show(-1)
	}
	if err != nil {
		return err
	}
	info, err := os.Stat(pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "backed up %s to %s (%d bytes, checked); restore it with: tapp db restore %s --db %s\n",
		*dsn, pos[0], info.Size(), pos[0], *dsn)
	return nil
}

func (m *Main) dbRestore(ctx context.Context, args []string) error {
	fs := m.flags("db restore", "BACKUP [flags]\n\nPuts a backup (tapp db backup) in place of the SQLite store after checking it. The file it\n"+
		"replaces is kept beside it, renamed; nothing is deleted. Stop every arena and league using the store first.")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: tapp db restore BACKUP [--db DSN]")
	}
	kept, err := store.Restore(ctx, *dsn, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "restored %s from %s\n", *dsn, pos[0])
	if kept != "" {
		fmt.Fprintf(m.Stdout, "the database it replaced is kept as %s\n", kept)
	}
	return nil
}

func (m *Main) dbMigrate(ctx context.Context, args []string) error {
	fs := m.flags("db migrate", "[flags]\n\nBrings the store to this build's schema (every writing command does so too).")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("usage: tapp db migrate [--db DSN]")
	}
	st, err := m.openExistingStoreToWrite(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := st.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "%s is at schema version %d, this build's\n", *dsn, v)
	return nil
}
