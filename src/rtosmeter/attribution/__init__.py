"""Per-function attribution of measured intervals (issue 30).

The rmcycles plugin (plugins/qemu/attrib.c), given a function map of the
firmware (`funcmap`), attributes every executed instruction (and estimated
cycle) between two counter reads to the function that executed it, grouped
by the reads' sites; `match` pairs each series with its group by its
samples' count, sum and hash, so that a breakdown sums exactly to the
series' samples; `table` stores it beside them; `explain`, `diff` and
`categories` read it back.
"""
