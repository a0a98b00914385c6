package sprt

// NewPair is newPair, for tests.
var NewPair = newPair
