package launch

import (
	"slices"
	"testing"
)

func TestSplitHonoursQuotesAndLeadingAssignments(t *testing.T) {
	t.Setenv("TAPP_SPLIT_TEST_DIR", "/opt/bots")
	for _, tc := range []struct {
		command   string
		argv, env []string
	}{
		{command: "python bot.py", argv: []string{"python", "bot.py"}},
		{command: `python "my bot.py" --name 'a b'`, argv: []string{"python", "my bot.py", "--name", "a b"}},
		{command: `./bot\ one --x=1`, argv: []string{"./bot one", "--x=1"}},
		{command: "MODE=last DEBUG=1 ./bot --mode=x", argv: []string{"./bot", "--mode=x"}, env: []string{"MODE=last", "DEBUG=1"}},
		{command: "$TAPP_SPLIT_TEST_DIR/bot", argv: []string{"/opt/bots/bot"}},
	} {
		argv, env, err := Split(tc.command)
		if err != nil || !slices.Equal(argv, tc.argv) || !slices.Equal(env, tc.env) {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q", tc.command, argv, env, err, tc.argv, tc.env)
		}
	}
}

func TestSplitRefusesLinesWithoutAProgram(t *testing.T) {
	t.Parallel()
	for _, command := range []string{"", "   ", "A=1", `python "unclosed`} {
		if argv, _, err := Split(command); err == nil {
			t.Errorf("Split(%q) = %q, want an error", command, argv)
		}
	}
}
