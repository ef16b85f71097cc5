"""The result store (one SQLite file): `Store`, its rows and its errors."""

from rtosmeter.store.connection import StoreError
from rtosmeter.store.lock import RunLock
from rtosmeter.store.rows import (
    AttributionRow,
    BuildRow,
    CaseRow,
    ExecutionRow,
    RunRow,
    SeriesRow,
    blob_to_samples,
    samples_to_blob,
)
from rtosmeter.store.schema import SCHEMA_VERSION
from rtosmeter.store.store import Store

__all__ = ["SCHEMA_VERSION", "AttributionRow", "BuildRow", "CaseRow", "ExecutionRow", "RunLock",
           "RunRow", "SeriesRow", "Store", "StoreError", "blob_to_samples", "samples_to_blob"]
