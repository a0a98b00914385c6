package domain

import "errors"

// MaxBotName is the longest bot name.
const MaxBotName = 64

// ValidBotName is the one rule for bot names, wherever a name is given (tapp bots add, the
// admin API, league files): 1 to 64 characters, letters, digits, '-', '_', '.' and '#', the
// first a letter or digit. Names appear in match ids, file names and command lines, so "."
// and ".." (and any name starting with '.' or '-') are refused.
func ValidBotName(name string) error {
	if name == "" || len(name) > MaxBotName {
		return errors.New("a bot name has 1 to 64 characters")
	}
	for i, r := range name {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if i == 0 && !alnum {
			return errors.New("a bot name starts with a letter or a digit")
		}
		if !alnum && r != '-' && r != '_' && r != '.' && r != '#' {
			return errors.New("a bot name uses only letters, digits, '-', '_', '.' and '#'")
		}
	}
	return nil
}
