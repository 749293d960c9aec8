"""A judged run's wall, split into its phases by the bench judge's log (`judge.py`, `GET /log`).

The wall of a judged workload is one chain: the process starts, the first request leaves,
each of the `lanes` (calls in flight) sends its next request once its answer is back, the last
answer comes back, the process exits. The judge stamps every request's arrival and its answer
on the machine's monotonic clock, which `run.py` also reads around the process, so the wall
splits into:

- `start`: process start → the judge has the first request (imports, loading, planning);
- `first wave`: first request → the `lanes`-th (the first wave going out; the bare client
  opens its lanes at once);
- `turnaround`: an answer written → that connection's next request read, the median over
  every lane (what a CLI does between two calls of one lane, and the judge's own turn);
- `after`: the last answer written → the process reaped (grading the last answers, reports,
  exit).

What the start costs a workload once, the turnaround costs it once per call a lane makes
(`calls / lanes − 1` times): so these say which part of a gap to the floor grows with the run.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

PHASES = ("start", "first wave", "turnaround", "after")


def phases(log: list[list[float]], started: float, ended: float, lanes: int
           ) -> dict[str, float] | None:
    """The phases (seconds) of one run from its requests `[arrived, connection, answered]`;
    None when the judge saw none of it."""
    if not log:
        return None
    arrived = sorted(r[0] for r in log)
    by_connection: dict[float, list[list[float]]] = defaultdict(list)
    for r in log:
        by_connection[r[1]].append(r)
    turns = [nxt[0] - prev[2] for rs in by_connection.values()
             for prev, nxt in zip(sorted(rs), sorted(rs)[1:], strict=False)]
    return {"start": arrived[0] - started,
            "first wave": arrived[min(lanes, len(arrived)) - 1] - arrived[0],
            "turnaround": statistics.median(turns) if turns else 0.0,
            "after": ended - max(r[2] for r in log)}


def print_phases(results: dict[str, dict[str, list[dict[str, Any]]]]) -> dict[str, Any]:
    """The medians of each tool's phases per workload, as a table; returns them."""
    out: dict[str, Any] = {}
    rows = []
    for name, by_tool in results.items():
        for tool, runs in by_tool.items():
            got = [r["phases"] for r in runs if r.get("phases")]
            if not got:
                continue
            med = {p: statistics.median(g[p] for g in got) for p in PHASES}
            out.setdefault(name, {})[tool] = med
            rows.append(f"| {name} | {tool} | " + " | ".join(
                f"{med[p] * 1000:.1f} ms" for p in PHASES) + " |")
    if rows:
        print("\nphases of the wall (medians; the judge's clock, phases.py):")
        print("| workload | tool | " + " | ".join(PHASES) + " |")
        print("|---|---|" + "---|" * len(PHASES))
        print("\n".join(rows))
    return out
