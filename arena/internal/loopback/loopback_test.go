package loopback

import "testing"

func TestListen(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{
		"127.0.0.1:7000": true, "localhost:80": true, "[::1]:8080": true, "127.0.0.2:1": true,
		"0.0.0.0:7000": false, ":7000": false, "[::]:80": false, "10.0.0.5:80": false, "arena.example.org:443": false,
	} {
		if got := Listen(addr); got != want {
			t.Errorf("Listen(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestPeer(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{
		"127.0.0.1:51000": true, "[::1]:51000": true, "[::ffff:127.0.0.1]:5": true,
		"192.168.1.2:51000": false, "garbage": false,
	} {
		if got := Peer(addr); got != want {
			t.Errorf("Peer(%q) = %v, want %v", addr, got, want)
		}
	}
}
