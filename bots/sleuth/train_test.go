package sleuth

import (
	"context"
	"math"
	"strings"
	"testing"
)

// olderSamples are n point contracts of role declared in an older variant whose points made
// lie on the plane 60 + shift + slope·(dd − 60) + perTrump·(trumps − 4).
func olderSamples(role, n int, shift, slope, perTrump float64) []verdictSample {
	var out []verdictSample
	for i := range n {
		dd, trumps := 40+i%41, 3+i%4
		made := int(math.Round(60 + shift + slope*float64(dd-60) + perTrump*float64(trumps-4)))
		out = append(out, verdictSample{role: role, older: true, ddPoints: dd, actualPoints: made, trumps: trumps})
	}
	return out
}

func TestOlderCalibrationFitsTheLineOfPointsMade(t *testing.T) {
	samples := append(olderSamples(RoleBot, 80, 3, 0.5, 4), olderSamples(RoleOther, 80, -2, 0.9, 0)...)
	cal, rep, err := fitCalibration(samples, false)
	if err != nil {
		t.Fatal(err)
	}
	for r, want := range [][3]float64{{3, 0.5, 4}, {-2, 0.9, 0}} {
		if math.Abs(cal.Shift[r]-want[0]) > 0.6 || math.Abs(cal.Slope[r]-want[1]) > 0.03 || math.Abs(cal.Trumps[r]-want[2]) > 0.3 {
			t.Errorf("role %d: shift %.2f slope %.3f per trump %.2f, want %v", r, cal.Shift[r], cal.Slope[r], cal.Trumps[r], want)
		}
	}
	if _, ok := rep.older["bot"]; !ok {
		t.Errorf("the provenance report lacks the bot's fit: %v", rep.older)
	}

}

func TestTrainingFailsWithoutDataForAFamily(t *testing.T) {
	// the bot declared no point contract of an older variant: the fit must say so, not keep
	// the starting Shift
	if _, _, err := fitCalibration(olderSamples(RoleOther, 80, 0, 1, 0), false); err == nil || !strings.Contains(err.Error(), "bot") {
		t.Errorf("older family without the bot's contracts: err = %v, want one naming the bot", err)
	}
	var modern []verdictSample
	for i := range 50 {
		modern = append(modern, verdictSample{class: ClassPoints, role: RoleBot, level: i % numLevels, won: i%2 == 0})
	}
	if _, _, err := fitCalibration(modern, true); err == nil || !strings.Contains(err.Error(), "other") {
		t.Errorf("modern family without other seats' contracts: err = %v, want one naming them", err)
	}
	if _, err := Train(context.Background(), TrainConfig{Families: []string{"modern-5"}}); err == nil {
		t.Error("an unknown family trained without an error")
	}
	if _, err := Train(context.Background(), TrainConfig{Families: []string{"older"}}); err == nil {
		t.Error("part of the families trained without the others' parameters")
	}
}

func TestASlopeOfZeroReadsAsOne(t *testing.T) {
	// params.json files written before slopes were fitted have none
	var c Calibration
	if c.slope(RoleBot) != 1 || c.slope(RoleOther) != 1 {
		t.Errorf("slopes %v %v, want 1", c.slope(RoleBot), c.slope(RoleOther))
	}
}

// The bot's own contract that double dummy makes or cannot tell is given at least another
// seat's chance (the trainer's few deals at a table of four had the bot's at 83% and 34%);
// one lost double dummy keeps its own, lower chance.
func TestOwnContractChanceAtLeastAnotherSeats(t *testing.T) {
	var c Calibration
	c.Win[ClassPoints][RoleBot] = [numLevels]float64{0.08, 0.69, 0.83, 0.34}
	c.Win[ClassPoints][RoleOther] = [numLevels]float64{0.24, 0.68, 0.96, 0.81}
	want := [numLevels]float64{0.08, 0.69, 0.96, 0.81}
	for l := range numLevels {
		if got := c.chance(ClassPoints, RoleBot, l); got != want[l] {
			t.Errorf("level %d: the bot's chance %.2f, want %.2f", l, got, want[l])
		}
		if got := c.chance(ClassPoints, RoleOther, l); got != c.Win[ClassPoints][RoleOther][l] {
			t.Errorf("level %d: another seat's chance %.2f, want its own %.2f", l, got, c.Win[ClassPoints][RoleOther][l])
		}
	}
}
