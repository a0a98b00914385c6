package rating

// lowRankSandwich is M·W·Mᵀ for M = diag(d) − Z·Jᵀ (d: n values; Z and J: n × p; W: n × n),
// in O(n²·p) instead of the O(n³) of forming M and multiplying: the fit test's M is such a
// diagonal less a product of rank p (the model's parameters, a dozen or two), and n (the
// composition seats it tests) runs to hundreds — at 567 seats the two n³ products were
// 0.5 s of CPU, nearly the whole cost of a board of a 12-bot ladder of 20,000 deals.
//
//	M·W·Mᵀ = U·diag(d) − (U·J)·Zᵀ,  U = M·W = diag(d)·W − Z·(Jᵀ·W),
//	U·J = diag(d)·(W·J) − Z·(Jᵀ·W·J).
func lowRankSandwich(d []float64, z, j, w [][]float64) [][]float64 {
	n := len(d)
	out := newMatrix(n)
	if n == 0 {
		return out
	}
	p := len(j[0])
	jw := mulRect(transpose(j), w) // p × n
	wj := mulRect(w, j)            // n × p
	jwj := mulRect(jw, j)          // p × p
	wjt := transpose(jw)           // (Jᵀ·W)ᵀ, n × p: the inner loops read rows
	uj := newMatrixRect(n, p)
	for x := range n {
		for q := range p {
			v := d[x] * wj[x][q]
			for r := range p {
				v -= z[x][r] * jwj[r][q]
			}
			uj[x][q] = v
		}
	}
	for x := range n {
		zx, ujx, wx := z[x], uj[x], w[x]
		for y := range n {
			u := d[x] * wx[y]
			jwy := wjt[y]
			for q := range p {
				u -= zx[q] * jwy[q]
			}
			v := u * d[y]
			zy := z[y]
			for q := range p {
				v -= ujx[q] * zy[q]
			}
			out[x][y] = v
		}
	}
	return out
}
