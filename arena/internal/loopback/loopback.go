// Package loopback says whether an address stays on this machine: a listener bound to
// loopback only, or a peer connecting from it. It is what decides where a token may travel
// in plain text (every listener that takes a token refuses plain text beyond loopback).
package loopback

import (
	"net"
	"net/netip"
	"strings"
)

// Listen reports whether a listen address (host:port, or a bare host) is bound to loopback
// only; an empty host, "0.0.0.0" or "::" listen everywhere, and a host name other than
// localhost may resolve to anything.
func Listen(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// Peer reports whether a connection's remote address (host:port) is on loopback.
func Peer(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
