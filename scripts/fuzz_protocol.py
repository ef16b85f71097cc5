"""Fuzz the result-stream parser for a while; print executions and exec/s.

    .venv/bin/python scripts/fuzz_protocol.py --seconds 600            # own fuzzer
    .venv/bin/python scripts/fuzz_protocol.py --engine atheris --runs 1000000

The own engine is structure-aware (tests/streamfuzz.py: mutated real
streams with valid CRCs); atheris (coverage-guided libFuzzer) starts from the
same recorded streams and mutates bytes, and each of its inputs is also run
through one structure-aware mutation, so it reaches past the CRC. A crash
prints the input's file and exits 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import streamfuzz

CRASH = Path("fuzz-crash.rmstream")
PROGRESS = 50_000  # the own engine prints its count every this many executions


def _report(runs: int, started: float) -> None:
    seconds = max(time.monotonic() - started, 1e-9)
    print(f"executions: {runs}\nseconds: {seconds:.1f}\nexec/s: {runs / seconds:.0f}",
          flush=True)


def own(seed: int, runs: int, seconds: float) -> int:
    rng = random.Random(seed)
    seeds = streamfuzz.seeds()
    started = time.monotonic()
    n = 0
    while (runs == 0 or n < runs) and (seconds == 0 or time.monotonic() - started < seconds):
        data = streamfuzz.mutate(rng, rng.choice(seeds))
        try:
            streamfuzz.check(data)
        except Exception:
            CRASH.write_bytes(data)
            print(f"crash after {n} executions; input in {CRASH}", file=sys.stderr)
            raise
        n += 1
        if n % PROGRESS == 0:  # a long campaign shows its count as it goes
            print(f"... {n} executions, {n / (time.monotonic() - started):.0f} exec/s",
                  flush=True)
    _report(n, started)
    return 0


def with_atheris(seed: int, runs: int, seconds: float) -> int:
    import atheris  # type: ignore[import-not-found]

    count = [0]
    started = time.monotonic()

    def one(data: bytes) -> None:
        count[0] += 1
        streamfuzz.check(data)
        streamfuzz.check(streamfuzz.mutate(random.Random(data[:16]), data))
        if count[0] == runs:
            _report(count[0], started)

    corpus = Path(tempfile.mkdtemp(prefix="rtosmeter-fuzz-"))
    for i, data in enumerate(streamfuzz.seeds()):
        (corpus / f"seed{i}").write_bytes(data)
    args = [sys.argv[0], f"-seed={seed}", f"-artifact_prefix={CRASH.stem}-",
            "-max_len=300000", str(corpus)]
    args += [f"-runs={runs}"] if runs else []
    args += [f"-max_total_time={int(seconds)}"] if seconds else []
    atheris.instrument_all()  # coverage feedback from the parser's Python code
    atheris.Setup(args, one)
    atheris.Fuzz()  # exits the process when done
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=["own", "atheris"], default="own")
    ap.add_argument("--runs", type=int, default=0, help="executions (0: no limit)")
    ap.add_argument("--seconds", type=float, default=0, help="time limit (0: no limit)")
    ap.add_argument("--seed", type=int, default=1)
    opts = ap.parse_args()
    if opts.runs == 0 and opts.seconds == 0:
        opts.seconds = 60
    run = with_atheris if opts.engine == "atheris" else own
    return run(opts.seed, opts.runs, opts.seconds)


if __name__ == "__main__":
    sys.exit(main())
