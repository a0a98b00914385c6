//go:build !linux

package confine

import "errors"

func confineAndExec(Rules, []string) error {
	return errors.New("confining a program needs Linux (Landlock, seccomp)")
}
