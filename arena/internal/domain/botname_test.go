package domain

import "testing"

func TestValidBotName(t *testing.T) {
	t.Parallel()
	for _, good := range []string{"a", "random", "random#2", "my-bot_1.2", "9lives"} {
		if err := ValidBotName(good); err != nil {
			t.Errorf("ValidBotName(%q) = %v, want nil", good, err)
		}
	}
	for _, bad := range []string{"", ".", "..", ".hidden", "-x", "_x", "#2", "a b", "a/b", "é", string(make([]byte, 65))} {
		if err := ValidBotName(bad); err == nil {
			t.Errorf("ValidBotName(%q) = nil, want an error", bad)
		}
	}
}
