-- Tapp Arena schema, version 4 (SQLite): a deal's decisions in one compressed column.
-- decision_log holds every decision of the deal as one tapp.store.v1.DecisionLog message
-- (proto/tapp/store/v1/decision_log.proto), compressed (a format byte, a CRC-32C, an S2
-- block; see arena/internal/store/decisionlog.go): one value per deal instead of 17-40 rows of
-- decisions with ~1 KB of request each and their indexes.
-- Deals stored from this version on have it set and no rows in decisions; deals stored
-- before keep their rows there and a NULL decision_log. Both read back alike.
ALTER TABLE deals ADD COLUMN decision_log BLOB;
