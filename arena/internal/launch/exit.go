package launch

// Done is closed when the process is over for good: stopped, or (with Spec.Once) exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Err tells how the process's last run ended (its exit status; nil for a clean exit); call it
// after Done is closed.
func (p *Process) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exitErr
}

// Pid is the process id of the running process (0 between runs): for tests that look at what
// runs on the host.
func (p *Process) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}
