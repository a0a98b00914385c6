-- Tapp Arena schema, version 6 (SQLite): no index of results by bot.
-- No query reads results by bot: the results of a bot's matches are found through
-- match_bots (the ratings need every seat of those matches, not only the bot's), so the
-- index only cost every stored deal three more index inserts (≈ 8% of storing a deal).
DROP INDEX results_bot;
