package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tapparena/tapp/bots/starter"
)

// newCmd is `tapp new bot --lang go|python DIR`: a starter project for a bot.
func (m *Main) newCmd(_ context.Context, args []string) error {
	const usage = "tapp new bot --lang go|python DIR [--name NAME] [--repo CHECKOUT]"
	if len(args) > 0 && helpFlag(args[0]) {
		fmt.Fprintf(m.Stdout, "%s\n(tapp new bot -h lists its flags)\n", usage)
		return nil
	}
	if len(args) == 0 || args[0] != "bot" {
		return usagef("%s", usage)
	}
	fs := m.flags("new bot", "--lang go|python DIR")
	lang := fs.String("lang", "", "the bot's language: "+strings.Join(starter.Langs, " or "))
	name := fs.String("name", "", "the bot's name (default: DIR's last element)")
	repo := fs.String("repo", "", "the Tapp Arena checkout whose SDK the bot gets a copy of (default: the one around the current folder, else around this tapp binary)")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 || *lang == "" {
		return usagef("tapp new bot --lang go|python DIR: give the language and one folder")
	}
	if *repo == "" {
		if *repo, err = m.findRepo(); err != nil {
			return usagef("%v: give --repo PATH (the folder of your Tapp Arena clone)", err)
		}
	}
	files, err := starter.Write(starter.Options{Lang: *lang, Dir: pos[0], Name: *name, Repo: *repo})
	if err != nil {
		return err
	}
	dir := pos[0]
	bot := *name
	if bot == "" {
		bot = filepath.Base(filepath.Clean(dir))
	}
	fmt.Fprintf(m.Stdout, "wrote %s in %s (the SDK copied from %s)\n\nnext:\n  cd %s\n", strings.Join(files, ", "), dir, *repo, dir)
	switch *lang {
	case "go":
		fmt.Fprintf(m.Stdout, "  go build -o %s .\n  tapp bot check --cmd ./%s\n", bot, bot)
	default:
		fmt.Fprintf(m.Stdout, "  python3 -m venv .venv && .venv/bin/pip install -r requirements.txt\n  tapp bot check --cmd \".venv/bin/python bot.py\"\n")
	}
	fmt.Fprintf(m.Stdout, "  tapp league run league.yaml --db %s.db     # a first match against the built-in bots\n", bot)
	return nil
}

func (m *Main) findRepo() (string, error) {
	if wd, err := os.Getwd(); err == nil {
		if r, err := starter.FindRepo(wd); err == nil {
			return r, nil
		}
	}
	if m.Executable != "" {
		if exe, err := filepath.EvalSymlinks(m.Executable); err == nil {
			if r, err := starter.FindRepo(filepath.Dir(exe)); err == nil {
				return r, nil
			}
		}
	}
	return "", fmt.Errorf("no Tapp Arena checkout around the current folder or the tapp binary")
}
