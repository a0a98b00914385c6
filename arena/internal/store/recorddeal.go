package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/tapparena/tapp/engine"
)

// The sections of a compact record that say what was dealt and who sat where (record.go):
// the cards, the options and the seating.

// appendDealCards writes the owner of every card of the pack; ok false if the deal does not
// deal the pack exactly (Validate has checked it does).
func appendDealCards(b []byte, r engine.RuleSet, d engine.Deal) ([]byte, bool) {
	pack := r.Pack()
	players := r.Players
	union, count := d.Tapp, d.Tapp.Len()
	for i := range engine.MaxPlayers {
		if i >= players && !d.Hands[i].Empty() {
			return b, false
		}
		union |= d.Hands[i]
		count += d.Hands[i].Len()
	}
	if union != pack || count != pack.Len() {
		return b, false
	}
	width := uint(bits.Len(uint(players)))
	var acc uint64
	var nb uint
	for c := range engine.Card(engine.NumCards) {
		if !pack.Has(c) {
			continue
		}
		owner := uint64(players)
		for i := range players {
			if d.Hands[i].Has(c) {
				owner = uint64(i)
			}
		}
		acc |= owner << nb
		nb += width
		for nb >= 8 {
			b = append(b, byte(acc))
			acc >>= 8
			nb -= 8
		}
	}
	if nb > 0 {
		b = append(b, byte(acc))
	}
	return b, true
}

func packOptions(o engine.Options) uint64 {
	v := uint64(int64(o.Pot)<<1^int64(o.Pot)>>63) << 1
	if o.ForcedRamsch {
		v |= 1
	}
	return v
}

func unpackOptions(v uint64) engine.Options {
	z := v >> 1
	return engine.Options{Pot: int(int64(z>>1) ^ -int64(z&1)), ForcedRamsch: v&1 != 0}
}

// appendSeating writes the seating as indexes into the match's bots when it can, else as
// names.
func appendSeating(b []byte, seating, bots []string) []byte {
	base := uint64(len(bots))
	code, place := uint64(0), uint64(1)
	indexed := base > 0 && base < 1<<8 && len(seating) <= engine.MaxPlayers
	for _, name := range seating {
		j := slices.Index(bots, name)
		if !indexed || j < 0 {
			indexed = false
			break
		}
		code += uint64(j) * place
		place *= base
	}
	if indexed {
		return binary.AppendUvarint(b, code+1)
	}
	b = binary.AppendUvarint(b, 0)
	for _, name := range seating {
		b = appendString(b, name)
	}
	return b
}

// dealCards reads the cards section.
func (r *recordReader) dealCards(rules engine.RuleSet) engine.Deal {
	pack := rules.Pack()
	players := rules.Players
	width := uint(bits.Len(uint(players)))
	raw := r.bytes((pack.Len()*int(width) + 7) / 8)
	var d engine.Deal
	if raw == nil {
		return d
	}
	var acc uint64
	var nb uint
	for c := range engine.Card(engine.NumCards) {
		if !pack.Has(c) {
			continue
		}
		for nb < width {
			acc |= uint64(raw[0]) << nb
			raw = raw[1:]
			nb += 8
		}
		owner := int(acc & (1<<width - 1))
		acc >>= width
		nb -= width
		switch {
		case owner < players:
			d.Hands[owner] = d.Hands[owner].With(c)
		case owner == players:
			d.Tapp = d.Tapp.With(c)
		default:
			r.err = fmt.Errorf("card %s has owner %d at a table of %d", c, owner, players)
		}
	}
	return d
}

// seating reads the seating section.
func (r *recordReader) seating(players int, bots []string) []string {
	code := r.uvarint()
	seating := make([]string, players)
	if code == 0 {
		for i := range seating {
			seating[i] = r.string()
		}
		return seating
	}
	code--
	base := uint64(len(bots))
	if base == 0 {
		r.err = errors.New("a seating by index, but the match has no bots")
		return seating
	}
	for i := range seating {
		seating[i] = bots[code%base]
		code /= base
	}
	return seating
}
