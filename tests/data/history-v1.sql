-- A history database as arena wrote it at schema version 1 (runs and
-- labels; engines as a JSON list of names), with two runs. tests/history.rs
-- opens it with today's arena, which must migrate it and keep both runs.
PRAGMA application_id = 1634887022;
PRAGMA user_version = 1;
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    config_hash TEXT NOT NULL,
    shard TEXT NOT NULL,
    games_digest TEXT NOT NULL,
    game_lines INTEGER NOT NULL,
    date TEXT NOT NULL,
    added TEXT NOT NULL,
    engines TEXT NOT NULL,
    games INTEGER NOT NULL,
    games_played INTEGER NOT NULL,
    games_scheduled INTEGER NOT NULL,
    wins INTEGER,
    draws INTEGER,
    losses INTEGER,
    ptnml TEXT,
    elo REAL,
    elo_error REAL,
    llr REAL,
    verdict TEXT,
    status TEXT NOT NULL,
    UNIQUE (config_hash, shard, games_digest)
);
CREATE INDEX runs_by_name ON runs (name, date);
CREATE TABLE labels (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
);
INSERT INTO runs VALUES (1, 'eval-v2-vs-v1', '0123456789abcdef', '1/1', 'aaaaaaaaaaaaaaaa', 608,
    '2026-11-01T03:00:00Z', '2026-11-01T03:05:00Z', '["features-v1","features-v2"]',
    608, 608, 10000, 281, 12, 315, '[80,6,149,6,63]', -19.45, 27.12, -3.0, 'H0', 'complete');
INSERT INTO runs VALUES (2, 'eval-v2-vs-v1', '0123456789abcdef', '1/1', 'bbbbbbbbbbbbbbbb', 420,
    '2026-11-02T03:00:00Z', '2026-11-02T03:05:00Z', '["features-v1","features-v2"]',
    420, 420, 10000, 230, 10, 180, '[40,10,100,30,30]', 41.5, 33.0, 2.95, 'H1', 'complete');
INSERT INTO labels VALUES (1, 'commit', 'c0ffee1');
INSERT INTO labels VALUES (2, 'commit', 'c0ffee2');
