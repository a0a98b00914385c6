-- Tapp Arena schema (SQLite): double-dummy analyses of stored deals (package arena/internal/analysis).
-- One row per deal and analysis method (the method names the algorithm's version and its
-- options, e.g. "v1 bid-samples=0 seed=0"): a second `tapp analyze` reads them instead of
-- solving again. The body is the deal's analysis as JSON (analysis.Deal). Deleting a match
-- deletes its analyses.
CREATE TABLE deal_analyses (
	match_id    TEXT    NOT NULL,
	deal_number INTEGER NOT NULL,
	method      TEXT    NOT NULL,
	body        TEXT    NOT NULL,
	PRIMARY KEY (match_id, method, deal_number),
	FOREIGN KEY (match_id, deal_number) REFERENCES deals (match_id, number) ON DELETE CASCADE
);
