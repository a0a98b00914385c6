// Package pimc is what the two determinized-search bots, kibitz (bots/search) and sleuth
// (bots/sleuth), share around the double-dummy solver (bots/doubledummy): a pool of solvers,
// what the solver is asked for a card and how its answer becomes the bot's payoff, the
// contracts a hand is worth evaluating, the alternatives of the declarer's choices, and the
// tie-break that picks an action among equally good ones. How the worlds are drawn, weighed
// and budgeted is each bot's own.
package pimc
