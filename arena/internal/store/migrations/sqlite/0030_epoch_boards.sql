-- Tapp Arena schema, version 30: the matches a standing ladder's epochs stored before version 22
-- count on the ladder's board. Which leagues are epochs of which ladder takes the SHA-256 of
-- each league's bots, so the store's Go conversion of version 30 (epochboards.go) sets
-- matches.board and marks the rating sums for a rebuild; nothing changes in the schema.
SELECT 1;
