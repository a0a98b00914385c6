-- Tapp Arena schema, version 22: the board a match counts on, when it is not its league's own.
-- A standing ladder plays its epochs (one league per set of versions) onto one board, named as
-- the ladder: the rating sums of such a match are kept under its board instead of its league,
-- and a filter by the board's name selects the matches of every epoch. '' (every match stored
-- before this version): the match counts on its league's board.
ALTER TABLE matches ADD COLUMN board TEXT NOT NULL DEFAULT '';
CREATE INDEX matches_board ON matches (board) WHERE board <> '';
