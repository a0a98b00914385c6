package board

import (
	"slices"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// SkillOf is the headline's fit behind Compute's board of s (every bot): the calibration's
// diagnostics read its covariance, which the board shows only as intervals and LOS.
func SkillOf(s *Sums) (*rating.SkillResult, error) {
	var tables []*rating.TableSums
	var scopes []Scope
	for _, sc := range slices.SortedFunc(scopeKeys(s.Tables), compareScopes) {
		if t := s.Tables[sc]; t.Units > 0 {
			tables, scopes = append(tables, t), append(scopes, sc)
		}
	}
	return rating.Skill(skillInput(s, tables, scopes), nil)
}
