-- Tapp Arena schema, version 15: records that prove themselves.
-- Every match commits, before its first deal, to its deals and to their manifest (how many
-- deals, groups and seatings): commitment_version is the construction of its commitment
-- (match.CommitmentText): 0 none made, 1 the first (without the manifest line), 2 with it.
ALTER TABLE matches ADD COLUMN commitment_version INTEGER NOT NULL DEFAULT 0;
UPDATE matches SET commitment_version = 1 WHERE commitment <> '';
-- A match's stored deals form a hash chain in the order they were stored
-- (arena/internal/dealchain): chain_version is its construction (0 while no deal is in it),
-- chain_len the deals in it and chain_head its last link (32 bytes), kept up to date by the
-- transaction that stores a deal.
ALTER TABLE matches ADD COLUMN chain_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN chain_len INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN chain_head BYTEA;
-- Each deal's place in its match's chain (from 0) and the first 8 bytes of its link. Both are
-- NULL for the deals stored before this version: they are in no chain.
ALTER TABLE deals ADD COLUMN chain_seq INTEGER;
ALTER TABLE deals ADD COLUMN chain_link BYTEA;
