"""`mcptest label REPORT --sample K`: a seeded random audit sample of a run's judged verdicts
into a labelling sheet; `--estimate SHEET`: the run's pass rate from the labelled sheet by
PPI++ (docs/statistics.md, "Audit samples")."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.errors import UsageError

if TYPE_CHECKING:
    import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("report", type=Path, help="a report written by --reporter json")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--sample", type=int, metavar="K",
                   help="draw K judged verdicts at random into a labelling sheet")
    g.add_argument("--estimate", type=Path, metavar="SHEET",
                   help="a labelled sheet of this run: the pass rate by PPI++")
    p.add_argument("--seed", type=int, default=39, metavar="N",
                   help="the sample's seed (default 39): the same report and seed give the "
                        "same sheet")
    p.add_argument("--output", type=Path, metavar="PATH",
                   help="the sheet to write (default: REPORT's name with .labels.yaml)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mcptest.calibrate.audit import draw, estimate, judged_items, sheet_text
    from mcptest.calibrate.labels import load_labels_file
    from mcptest.report.io import read_report

    report = read_report(args.report)
    items = judged_items(report)
    if args.sample is not None:
        if args.sample < 2:
            raise UsageError("--sample needs at least 2 verdicts")
        if not items:
            raise UsageError(f"{args.report}: no judged verdict to sample")
        out: Path = args.output or args.report.with_name(args.report.stem + ".labels.yaml")
        sample = draw(items, args.sample, args.seed)
        out.write_text(sheet_text(args.report.as_posix(), items, sample, args.seed),
                       encoding="utf-8")
        print(f"wrote {out}: {len(sample)} of {len(items)} judged verdict(s), seed "
              f"{args.seed}; set each `human:` to pass or fail", file=sys.stderr)
        return 0
    sheet = load_labels_file(args.estimate)
    if sheet.audit is None:
        raise UsageError(f"{args.estimate}: not an audit sheet (no `audit:` block): draw one "
                         "with `mcptest label REPORT --sample K`")
    found = estimate(items, sheet.audit, sheet.labels)
    print(f"judged pass rate {found.judged_rate:.3f} over {len(items)} judged verdict(s)")
    e = found.estimate
    if e is None:
        print("PPI++: needs at least two labelled rows and one judged row outside the sample")
        return 0
    low, high = max(0.0, e.low), min(1.0, e.high)
    print(f"PPI++ estimate {e.rate:.3f} [{low:.3f}, {high:.3f}] (95%; {e.labelled} audited, "
          f"{e.unlabelled} judged only, λ {e.lam:.2f})")
    return 0
