package botcheck

import (
	"fmt"
	"io"
	"strings"
)

// WriteItem prints one item: PASS or FAIL, its name and reason, then the fix and the notes.
func WriteItem(w io.Writer, it Item, verbose bool) {
	mark := "PASS"
	if !it.Pass {
		mark = "FAIL"
	}
	fmt.Fprintf(w, "%s  %-34s %s\n", mark, it.Name, it.Reason)
	if !it.Pass && it.Fix != "" {
		fmt.Fprintf(w, "      fix: %s\n", it.Fix)
	}
	if !it.Pass || verbose {
		for _, n := range it.Notes {
			fmt.Fprintf(w, "      %s\n", n)
		}
	}
}

// Summary is the report's last line.
func (r *Report) Summary() string {
	failed := r.Failed()
	if len(failed) == 0 && len(r.Items) > 0 {
		return fmt.Sprintf("bot %s (version %q): all %d items pass", r.Bot, r.Version, len(r.Items))
	}
	bot := r.Bot
	if bot == "" {
		bot = "that never connected"
	}
	names := make([]string, len(failed))
	for i, it := range failed {
		names[i] = it.Name
	}
	return fmt.Sprintf("bot %s: %d of %d items fail: %s", bot, len(failed), len(r.Items), strings.Join(names, "; "))
}
