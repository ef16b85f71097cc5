"""The result stream, version 1 (docs/protocol.md): its records (records.py),
samples (samples.py), parser (parser.py), writer (writer.py) and capability
masks in words (caps.py).

`parse_stream()` never raises, whatever the bytes. Anything corrupt, truncated,
out of order or out of range becomes a `StreamError` naming its byte offset
and costs only the record it is in; every complete, valid record is kept, so
a run that dies mid-case still yields the cases before it (and the one in
progress, marked `incomplete`). Numbers are ASCII digits of bounded width
that fit SQLite's int64; a series never holds more samples than HELLO
announced; what a stream can make the parser keep is bounded (cases, errors,
console lines, and per type CFG, META, SERIES, COUNT, CHECK records and
samples: MAX_KEPT, MAX_SAMPLES), so a flooding firmware costs a few hundred
MB at most, whatever it sends (tests/test_memory_bound.py measures it).

The parser stands alone: it imports nothing of the catalog or the source
tree. A capability mask stays an integer (`ParsedCase.missing`); whoever has
the names (the recorder, record.py, from the catalog) turns it into words with
`name_missing()`.
"""

from rtosmeter.protocol.caps import cap_names, lacks_reason, name_missing
from rtosmeter.protocol.parser import parse_stream
from rtosmeter.protocol.records import (
    MAX_CASES,
    MAX_CLOCK_HZ,
    MAX_ERRORS,
    MAX_FLASH_WS,
    MAX_KEPT,
    MAX_LINE,
    MAX_NOISE,
    MAX_SAMPLES,
    PREFIX,
    RECORD_FIELDS,
    VERSION,
    CheckRecord,
    Count,
    ParsedCase,
    ParsedStream,
    Series,
    StreamError,
)
from rtosmeter.protocol.samples import (
    CONTINUATION,
    FINAL,
    decode_samples,
    decode_samples_array,
    encode_samples,
)
from rtosmeter.protocol.writer import StreamWriter, escape, format_record, unescape

__all__ = ["CONTINUATION", "FINAL", "MAX_CASES", "MAX_CLOCK_HZ", "MAX_ERRORS", "MAX_FLASH_WS",
           "MAX_KEPT", "MAX_LINE", "MAX_NOISE", "MAX_SAMPLES", "PREFIX", "RECORD_FIELDS",
           "VERSION", "CheckRecord", "Count", "ParsedCase", "ParsedStream", "Series",
           "StreamError", "StreamWriter", "cap_names", "decode_samples", "decode_samples_array",
           "encode_samples", "escape", "format_record", "lacks_reason", "name_missing",
           "parse_stream", "unescape"]
