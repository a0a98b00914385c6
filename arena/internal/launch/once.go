package launch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// RunOnce runs a short command to its end (a notification hook, say): command is split as
// Split splits it, stdin is its standard input, env adds to its environment. It is stopped
// after timeout. The error says how it ended, with the last lines of what it wrote.
func RunOnce(ctx context.Context, command string, env []string, stdin []byte, timeout time.Duration) error {
	argv, extra, err := Split(command)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), extra...), env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out tail
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	switch {
	case err == nil:
		return nil
	case ctx.Err() == context.DeadlineExceeded:
		err = fmt.Errorf("still running after %s: stopped", timeout)
	}
	if text := strings.TrimSpace(out.String()); text != "" {
		return fmt.Errorf("%s: %w; its output ends:\n%s", argv[0], err, indent(text))
	}
	return fmt.Errorf("%s: %w", argv[0], err)
}
