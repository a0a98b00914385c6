-- Tapp Arena schema, version 31: the deals a league's board counts from other leagues' matches.
-- A standing ladder's own league row plays nothing: its epochs (leagues of their own) play
-- onto its board (matches.board, version 22). board_deals keeps their count on the ladder's
-- row, up to date in the transaction that stores each deal (as deals is), so that a list of
-- leagues shows what the board holds without counting deals. The count of the matches stored
-- before this version is taken once, here.
ALTER TABLE leagues ADD COLUMN board_deals INTEGER NOT NULL DEFAULT 0;
UPDATE leagues SET board_deals = (
  SELECT count(*) FROM deals d JOIN matches m ON m.id = d.match_id
  WHERE m.board = leagues.id AND m.board <> '' AND m.league_id <> leagues.id);
