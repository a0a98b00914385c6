package botcheck

import (
	"errors"
	"io"
	"net"
	"sync"
)

// proxy forwards the bot's TCP connections to the check's arena, so that the check can drop
// the bot's stream the way a network fault would (both ends see the connection reset) without
// the arena or the bot knowing about the check.
type proxy struct {
	lis     net.Listener
	backend string

	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	done     bool
	accepted int // connections taken so far
}

func newProxy(listen, backend string) (*proxy, error) {
	lis, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, err
	}
	p := &proxy{lis: lis, backend: backend, conns: make(map[net.Conn]struct{})}
	go p.accept()
	return p, nil
}

// Addr is where the bot connects.
func (p *proxy) Addr() string { return p.lis.Addr().String() }

func (p *proxy) accept() {
	for {
		c, err := p.lis.Accept()
		if err != nil {
			return
		}
		go p.forward(c)
	}
}

func (p *proxy) forward(client net.Conn) {
	server, err := net.Dial("tcp", p.backend)
	if err != nil {
		_ = client.Close()
		return
	}
	if !p.track(client, server) {
		return
	}
	var wg sync.WaitGroup
	pipe := func(dst, src net.Conn) {
		defer wg.Done()
		_, _ = io.Copy(dst, src)
		// One direction ended: end both, as a broken connection would.
		_ = dst.Close()
		_ = src.Close()
	}
	wg.Add(2)
	go pipe(server, client)
	go pipe(client, server)
	wg.Wait()
	p.mu.Lock()
	delete(p.conns, client)
	delete(p.conns, server)
	p.mu.Unlock()
}

func (p *proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		for _, c := range cs {
			_ = c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	p.accepted++
	return true
}

// Accepted counts the connections forwarded so far.
func (p *proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// Drop cuts every connection open now; new ones are forwarded again. It reports how many
// connections it cut.
func (p *proxy) Drop() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for c := range p.conns {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset, not an orderly close
		}
		_ = c.Close()
		n++
	}
	return n / 2
}

// Close stops forwarding and cuts every connection.
func (p *proxy) Close() error {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
	p.Drop()
	err := p.lis.Close()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
