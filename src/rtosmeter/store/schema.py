"""The store's schema: every table of the result store, the features'
included (attribution, idle, energy), so one module owns them all.

The file's version is `PRAGMA user_version`; `SCHEMA` creates a new file at
`SCHEMA_VERSION`, and rtosmeter.store.migrations brings an older one there
step by step. A feature reads and writes its table through `Store`'s public
API (`Store.transaction`, `Store.conn`, `Store.decoded`); the store imports
no feature.
"""

from __future__ import annotations

SCHEMA_VERSION = 9

CORE = """
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'running',   -- running | done | interrupted
    campaign TEXT NOT NULL DEFAULT '{}',
    host TEXT NOT NULL DEFAULT '{}',
    tool_version TEXT NOT NULL DEFAULT ''
);
CREATE TABLE builds (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    port TEXT NOT NULL,
    target TEXT NOT NULL,
    profile TEXT NOT NULL,
    config TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'ok',
    error TEXT NOT NULL DEFAULT '',
    axes TEXT NOT NULL DEFAULT '{}'           -- rtosmeter.axes: {"toolchain": "gcc"}, since v4
);
CREATE TABLE executions (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    build_id INTEGER NOT NULL REFERENCES builds(id),
    grp TEXT NOT NULL,
    status TEXT NOT NULL,                     -- ok | failed | error
    error TEXT NOT NULL DEFAULT '',
    exit_code INTEGER,
    wall_s REAL,
    runner TEXT NOT NULL DEFAULT '{}',
    stream BLOB NOT NULL DEFAULT x'',         -- empty since v3: see stream_chunks
    footprint TEXT NOT NULL DEFAULT '{}',
    elf TEXT NOT NULL DEFAULT '',
    hello TEXT NOT NULL DEFAULT '{}',         -- the stream's HELLO fields
    errors TEXT NOT NULL DEFAULT '[]',        -- [[offset, message], ...] from the parser
    fault TEXT NOT NULL DEFAULT 'null',
    noise TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE stream_chunks (
    execution_id INTEGER NOT NULL REFERENCES executions(id),
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (execution_id, seq)
);
CREATE TABLE cases (
    id INTEGER PRIMARY KEY,
    execution_id INTEGER NOT NULL REFERENCES executions(id),
    case_id TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    meta TEXT NOT NULL DEFAULT '{}',
    cfg TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE series (
    id INTEGER PRIMARY KEY,
    case_row INTEGER NOT NULL REFERENCES cases(id),
    name TEXT NOT NULL,
    what TEXT NOT NULL DEFAULT '',
    samples BLOB NOT NULL,
    sub INTEGER NOT NULL DEFAULT 1            -- 0: no overhead subtraction (SERIES sub=0)
);
CREATE TABLE counts (
    case_row INTEGER NOT NULL REFERENCES cases(id),
    name TEXT NOT NULL,
    period INTEGER NOT NULL,
    value INTEGER NOT NULL
);
CREATE TABLE checks (
    case_row INTEGER NOT NULL REFERENCES cases(id),
    name TEXT NOT NULL,
    ok INTEGER NOT NULL,
    got INTEGER NOT NULL,
    want INTEGER NOT NULL
);
CREATE INDEX builds_run ON builds(run_id);
CREATE INDEX executions_run ON executions(run_id);
CREATE INDEX cases_execution ON cases(execution_id);
CREATE INDEX series_case ON series(case_row);
CREATE INDEX counts_case ON counts(case_row);
CREATE INDEX checks_case ON checks(case_row);
"""

# Per series, per function, the instructions (and estimated cycles) of all
# its samples and the calls (rtosmeter.attribution; since v5). The
# per-sample mean is the total over the series' sample count.
ATTRIBUTION = """CREATE TABLE attribution (
    execution_id INTEGER NOT NULL REFERENCES executions(id),
    series_id INTEGER NOT NULL REFERENCES series(id),
    function TEXT NOT NULL,
    instructions INTEGER NOT NULL,            -- over every sample of the series
    cycles INTEGER,                           -- estimated (mode=cycles), else NULL
    calls INTEGER NOT NULL
);
CREATE INDEX attribution_series ON attribution(series_id)"""

# Idle figures per execution and window (rtosmeter.idle; since v6,
# time_limit since v9).
IDLE = """
CREATE TABLE idle (
    execution_id INTEGER NOT NULL REFERENCES executions(id),
    win TEXT NOT NULL,                        -- "execution" or a case id
    window_ns INTEGER NOT NULL,
    asleep_ns INTEGER NOT NULL,
    awake_ns INTEGER NOT NULL,
    wakeups INTEGER NOT NULL,
    wake_causes TEXT NOT NULL DEFAULT '{}',   -- JSON {"tick": n, "timer": n, "interrupt": n}
    instructions_awake INTEGER NOT NULL,
    interrupts TEXT NOT NULL DEFAULT '{}',    -- JSON: exceptions entered, by cause
    time_limit TEXT NOT NULL DEFAULT '',      -- why asleep time was not measured ('' it was)
    PRIMARY KEY (execution_id, win)
)"""

# Measured energy, one row per case of an execution measured with a power
# analyser (rtosmeter.energy; since v7).
ENERGY = """
CREATE TABLE energy (
    execution_id INTEGER NOT NULL REFERENCES executions(id),
    case_id TEXT NOT NULL,
    analyser TEXT NOT NULL,                   -- "Nordic PPK2", "Joulescope JS220", ...
    start_s REAL NOT NULL,                    -- the case's window in the trace
    duration_s REAL NOT NULL,
    energy_uj REAL NOT NULL,
    mean_ma REAL NOT NULL,
    mean_v REAL NOT NULL,
    trace TEXT NOT NULL,                      -- the trace file, relative to the store's folder
    PRIMARY KEY (execution_id, case_id)
)"""

# How well each case aligned by the stream's arrival times is known; a case
# aligned by the marker has no row (since v8).
ENERGY_STREAM = """
CREATE TABLE energy_stream (
    execution_id INTEGER NOT NULL REFERENCES executions(id),
    case_id TEXT NOT NULL,
    edge_s REAL NOT NULL,                     -- each window edge is within +- this
    low_uj REAL NOT NULL,                     -- the window shrunk by edge_s at both ends
    high_uj REAL NOT NULL,                    -- ... and grown by it
    PRIMARY KEY (execution_id, case_id)
)"""

SCHEMA = CORE + ";\n".join((ATTRIBUTION, IDLE, ENERGY, ENERGY_STREAM)) + ";\n"
