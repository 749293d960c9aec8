"""`mcptest init`: connect to a server, write a starter suite from what it lists, and with
`--ci` a GitHub workflow that runs it (docs/init.md)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
from pydantic import ValidationError

from mcptest.errors import UsageError
from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:
    import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Connect to a server, list its tools, resources and prompts, and write a "
                     "starter suite: one test per tool (docs/init.md).")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--command", metavar="CMD",
                        help='a stdio server, e.g. "uvx mcp-server-time"')
    source.add_argument("--url", metavar="URL", help="a Streamable HTTP server's MCP endpoint")
    p.add_argument("--bearer-token-env", metavar="NAME",
                   help="with --url: the variable holding the bearer token (never the token)")
    p.add_argument("--output", type=Path, default=Path("mcptest.yml"), metavar="PATH",
                   help="the suite to write (default mcptest.yml)")
    p.add_argument("--name", metavar="KEY", help="the server's key in the suite "
                   "(default: from the server's name)")
    p.add_argument("--ci", action="store_true",
                   help="also write .github/workflows/mcptest.yml (run from the repository root)")
    p.add_argument("--selection", action="store_true",
                   help="also draft a selection corpus: one prompt per tool from its "
                        "description, marked TODO (docs/selection.md)")
    p.add_argument("--force", action="store_true", help="overwrite files that exist")
    p.set_defaults(handler=run)


def _spec(args: argparse.Namespace) -> dict[str, Any]:
    if args.command is not None:
        try:
            command = shlex.split(args.command)
        except ValueError as e:
            raise UsageError(f"--command: {e}") from None
        if not command:
            raise UsageError("--command is empty")
        return {"command": command}
    if args.bearer_token_env is not None:
        return {"url": args.url, "auth": {"bearer_token_env": args.bearer_token_env}}
    return {"url": args.url}


def _refuse_overwrite(path: Path, force: bool) -> None:
    if path.exists() and not force:
        raise UsageError(f"{path} exists; pass --force to overwrite it")


def run(args: argparse.Namespace) -> int:
    from mcptest.starter.discover import discover
    from mcptest.starter.server_folder import server_as_loaded, server_as_written
    from mcptest.starter.suite_text import render_suite, server_key
    from mcptest.starter.workflow import WORKFLOW_PATH, render_workflow
    from mcptest.starter.yaml_out import check_loads
    from mcptest.suite.load import load_suites
    from mcptest.suite.models import RemoteServer, StdioServer

    if args.bearer_token_env is not None and args.url is None:
        raise UsageError("--bearer-token-env goes with --url")
    output: Path = args.output
    workflow = Path(WORKFLOW_PATH)
    _refuse_overwrite(output, args.force)
    suite_ref = ""
    if args.ci:
        _refuse_overwrite(workflow, args.force)
        suite_ref = Path(os.path.relpath(output.absolute(), Path.cwd())).as_posix()
        if suite_ref.startswith("../"):
            raise UsageError(f"--ci: {output} is outside this folder; run from the repository "
                             "root with an --output inside it")
    base_dir = output.absolute().parent  # where the written suite resolves relative paths
    spec = server_as_written(_spec(args), base_dir, Path.cwd())  # starts from any folder
    loaded = server_as_loaded(spec, base_dir)  # connect exactly as the written suite will
    try:
        model = StdioServer.model_validate(loaded) if "command" in spec else \
            RemoteServer.model_validate(loaded)
    except ValidationError as e:
        raise UsageError(f"--{'command' if 'command' in spec else 'url'}: "
                         f"{e.errors()[0]['msg']}") from None

    env = dict(os.environ)
    catalog = anyio.run(lambda: discover("server", model, base_dir=base_dir, env=env))
    key = args.name or server_key(catalog.server_name)
    source = f"--command {shlex.quote(args.command)}" if args.command else f"--url {args.url}"
    corpus = None
    if args.selection:
        from mcptest.starter.selection_draft import draft_selection

        named = [t for t in catalog.tools if isinstance(t, dict) and isinstance(
            t.get("name"), str) and t["name"]]
        corpus = draft_selection(named, env) if named else None
    starter = render_suite(key, spec, catalog, source, corpus)
    check_loads(starter.text, len(catalog.tools))  # SuiteTooLarge: a usage error, nothing written
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(starter.text, encoding="utf-8")
    load_suites([output], env=env)  # what we wrote must load; a failure here is our bug
    print(f"mcptest init: wrote {output}: {starter.tests} test(s) for {len(catalog.tools)} "
          f"tool(s), {len(catalog.resources)} resource(s) and {len(catalog.prompts)} prompt(s); "
          f"{starter.todo} marked TODO"
          + (f"; {starter.held} destructive tool(s) written as commented-out tests, not called"
             if starter.held else "")
          + (f"; a selection corpus of {len(corpus['prompts'])} prompt(s)" if corpus else ""),
          file=sys.stderr)
    if args.ci:
        workflow.parent.mkdir(parents=True, exist_ok=True)
        workflow.write_text(render_workflow(suite_ref), encoding="utf-8")
        print(f"mcptest init: wrote {workflow}", file=sys.stderr)
        if starter.todo == starter.tests:
            print("mcptest init: every test is marked TODO, so the workflow's `skip-tag: todo` "
                  "leaves none to run: its runs end with exit 7 (no tests were selected) until "
                  "you fill one in and drop its tag", file=sys.stderr)
    return ExitCode.OK
