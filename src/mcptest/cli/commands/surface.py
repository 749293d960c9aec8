"""`mcptest surface snapshot SUITE --output PATH` and `mcptest surface diff OLD NEW`.

Both need no key and import no litellm. `diff` exits 1 when a change the `--fail-on` policy
counts is found (default: breaking changes), so it can gate a pull request on its own
(docs/lint.md#surface).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.cli.output import to_stdout
from mcptest.cli.output_flags import add_single_output
from mcptest.cli.output_paths import check_outputs, write_checked
from mcptest.errors import UsageError
from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:
    import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Snapshot the tools, resources, templates and prompts of a "
                     "suite's servers, or classify the changes between two "
                     "snapshots (see docs/lint.md).")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    snap = actions.add_parser("snapshot", help="write the surface of a suite's servers as JSON")
    snap.add_argument("suite", type=Path, metavar="SUITE")
    snap.add_argument("--output", type=Path, metavar="PATH",
                      help="snapshot file to write (default: stdout)")
    snap.add_argument("--server", action="append", metavar="NAME",
                      help="only this server; may repeat (default: every server)")
    snap.add_argument("--client-capabilities", action="append", metavar="SET",
                      help="list under this client capability set (e.g. none, or "
                           "sampling,elicitation,roots, or all); repeat to compare sets "
                           "(default: the suite's surface.client_capabilities, else what its "
                           "tests declare)")
    diff = actions.add_parser("diff", help="classify the changes between two snapshots")
    diff.add_argument("old", type=Path, metavar="OLD")
    diff.add_argument("new", type=Path, metavar="NEW")
    diff.add_argument("--fail-on", choices=("breaking", "any", "never"), default="breaking",
                      help="which changes make the exit code 1 (default: breaking)")
    add_single_output(diff, default="text", choices=("text", "json", "md"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "snapshot":
        return _snapshot(args)
    return _diff(args)


def _snapshot(args: argparse.Namespace) -> int:
    from mcptest.llm.known_secrets import known_secrets
    from mcptest.report.redact import redact_text, redact_value
    from mcptest.suite.load import load_suite
    from mcptest.surface.matrix import describe, parse_set, take_matrix
    from mcptest.surface.open_servers import open_servers
    from mcptest.surface.snapshot import dumps
    from mcptest.surface.take import snapshot_servers, take_snapshot

    check_outputs([("snapshot", args.output)], [args.suite])
    env = dict(os.environ)
    loaded = load_suite(args.suite, env=env)
    names = snapshot_servers(loaded, args.server)
    given = loaded.suite.surface.client_capabilities if loaded.suite.surface else None
    sets = ([parse_set(v) for v in args.client_capabilities] if args.client_capabilities
            else [frozenset(s) for s in given] if given else None)

    async def go() -> tuple[dict[str, Any], dict[str, str]]:
        if sets is not None:
            return await take_matrix(loaded, names, env, sets)
        async with open_servers(loaded, names, env) as found:
            return await take_snapshot(found, names), found.failed

    doc, failed = anyio.run(go)
    # a file meant to be committed: a token a server echoes in a description stays out of it
    secrets = known_secrets([loaded.suite], env)
    text = dumps(redact_value(doc, secrets))
    for line in failed.values():
        print(f"error: {redact_text(line, secrets)}", file=sys.stderr)
    for line in describe(doc):
        print(line, file=sys.stderr)
    if failed:
        return ExitCode.SERVER_NOT_READY
    if args.output is None:
        to_stdout(text)
    else:
        write_checked(args.output, text, "snapshot")
        print(f"wrote {args.output}", file=sys.stderr)
    return ExitCode.OK


def _diff(args: argparse.Namespace) -> int:
    from mcptest.surface.diff import diff_servers
    from mcptest.surface.render import changes_json, changes_markdown, changes_text, fails

    check_outputs([(args.reporter, args.output)], [args.old, args.new],
                  input_kind="a snapshot being read")
    docs = []
    for path in (args.old, args.new):
        from mcptest.surface.snapshot import load

        if not path.is_file():
            raise UsageError(f"{path}: no such snapshot file")
        docs.append(load(path)[0])
    changes = diff_servers(docs[0]["servers"], docs[1]["servers"])
    if args.reporter == "json":
        text = json.dumps(changes_json(changes), indent=2, ensure_ascii=False) + "\n"
    elif args.reporter == "md":
        text = changes_markdown(changes)
    else:
        text = changes_text(changes)
    if args.output is None:
        to_stdout(text)
    else:
        write_checked(args.output, text, f"{args.reporter} surface diff")
    return ExitCode.TESTS_FAILED if fails(changes, args.fail_on) else ExitCode.OK
