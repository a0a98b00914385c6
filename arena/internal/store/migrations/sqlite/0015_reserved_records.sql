-- Tapp Arena schema, version 15: reserved for the branch "records", whose migration takes this
-- number when it is merged (the versions must run 1, 2, ... without a gap, and the rating
-- history points of the branch "speed" are version 18). When merging, delete this file in
-- favour of the real one.
SELECT 1;
