"""An HTML page with one icicle chart per breakdown: the series' samples as
the top bar, its functions below it, each as wide as its share (no script,
no outside file: it opens anywhere)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from rtosmeter.attribution.breakdown import Breakdown
from rtosmeter.attribution.explain import title

_STYLE = """body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}
.ice{display:flex;width:100%;margin:0 0 .2em}
.bar{box-sizing:border-box;border:1px solid #fff;padding:.25em .3em;overflow:hidden;
white-space:nowrap;text-overflow:ellipsis;font-size:12px;min-height:1.9em}
.top{background:#d9d9d9;width:100%}
table{border-collapse:collapse;margin:.6em 0 2em}td,th{padding:.15em .6em;text-align:right}
td:first-child,th:first-child{text-align:left}"""

_PALETTE = ("#f4a261", "#e9c46a", "#8ab17d", "#2a9d8f", "#9c89b8", "#e76f51", "#90be6d",
            "#f9c74f", "#577590", "#f28482")


def chart(b: Breakdown) -> str:
    bars = []
    for i, f in enumerate(b.functions):
        cost = b.cost(f)
        if not cost:
            continue
        share = 100 * cost / b.total if b.total else 0
        tip = f"{f.function}: {cost / b.samples:.2f} per sample ({share:.1f} %)"
        bars.append(f'<div class="bar" style="width:{share:.4f}%;background:'
                    f'{_PALETTE[i % len(_PALETTE)]}" title="{escape(tip)}">'
                    f"{escape(f.function)}</div>")
    rows = "".join(f"<tr><td>{escape(f.function)}</td><td>{b.cost(f) / b.samples:.2f}</td>"
                   f"<td>{100 * b.cost(f) / b.total if b.total else 0:.1f} %</td>"
                   f"<td>{f.calls / b.samples:.2f}</td></tr>" for f in b.functions)
    return (f"<h2>{escape(title(b))}</h2>"
            f'<div class="ice"><div class="bar top">{escape(b.case_id)} {escape(b.series)}: '
            f"{b.per_sample:.2f} per sample</div></div>"
            f'<div class="ice">{"".join(bars)}</div>'
            f"<table><tr><th>function</th><th>{escape(b.unit)} per sample</th><th>share</th>"
            f"<th>calls per sample</th></tr>{rows}</table>")


def page(found: Sequence[Breakdown], heading: str) -> str:
    body = "".join(chart(b) for b in found)
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>'
            f"{escape(heading)}</title><style>{_STYLE}</style></head><body>"
            f"<h1>{escape(heading)}</h1>{body}</body></html>\n")
