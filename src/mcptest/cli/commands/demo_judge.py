"""`mcptest demo-judge COMMAND …`: run an mcptest command with every judge call answered by a
scripted loopback judge (cli/scripted_judge.py), so a newcomer without any key sees a live
jury with its agreement band, a calibration table and a recording. Everything it prints is
labelled as scripted: the verdicts measure nothing (docs/judges.md)."""

from __future__ import annotations

import argparse
import os
import sys

from mcptest.errors import UsageError

BANNER = ("scripted judge: every verdict {when} comes from mcptest's scripted loopback judge "
          "(a score from a hash of each request, model `mcptest-scripted`), not from a model. "
          "It shows how a live jury, a calibration and a recording look; it measures nothing.")
COMMANDS = ("run", "eval", "calibrate")
GATEWAY_KEY = "mcptest-demo-judge-0f3c9a"
"""Sent to the loopback judge (a key is redacted wherever it appears, so not a common word)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Run `mcptest run|eval|calibrate …` with every judge call answered by a "
                     "scripted loopback judge on 127.0.0.1: see a jury, a calibration and a "
                     "recording without any key. The verdicts are scripted and measure nothing "
                     "(docs/judges.md).")
    p.add_argument("argv", nargs=argparse.REMAINDER, metavar="COMMAND ...",
                   help=f"the mcptest command to run: {', '.join(COMMANDS)}")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mcptest.cli.main import main
    from mcptest.cli.scripted_judge import ScriptedJudge

    argv: list[str] = list(args.argv)
    if not argv or argv[0] not in COMMANDS:
        raise UsageError(f"demo-judge runs one of {', '.join(COMMANDS)}: "
                         "`mcptest demo-judge run examples/judges.yml`")
    saved = dict(os.environ)
    print(BANNER.format(when="below"), file=sys.stderr)
    try:
        with ScriptedJudge() as judge:
            for key in [k for k in os.environ if k.endswith(("_API_KEY", "_BASE_URL"))]:
                del os.environ[key]  # only the scripted judge answers
            os.environ.update(MCPTEST_JUDGE_BASE_URL=judge.base_url,
                              MCPTEST_JUDGE_API_KEY=GATEWAY_KEY)
            code = main(argv)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    sys.stdout.flush()  # after the report, where a reader sees it; on stderr, so that a
    print(BANNER.format(when="above"), file=sys.stderr)  # report on stdout stays whole
    return code
