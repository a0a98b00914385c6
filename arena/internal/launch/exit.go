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
