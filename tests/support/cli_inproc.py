"""`mcptest ARGS` in the test's own process, for tests where a new process is not the point.

`support.cli_run.mcptest` starts `python -m mcptest`: a user's view, and the only way to see
start-up, signals, imports and the process's exit. Most CLI tests check what a command writes
and returns; for them a subprocess costs an interpreter start and mcptest's imports each time.
`cli` calls `mcptest.cli.main.main(argv)` (what the console script calls) with what a subprocess
would get: the same environment (no provider keys, plus `env`), its own working directory,
stdout and stderr captured as text, argparse's exit as the exit code. All three are put back
afterwards; the CLI keeps no other state between calls (docs/architecture.md, "Tests").
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mcptest.cli.main import main
from support.cli_run import keyless


@dataclass(frozen=True)
class Ran:
    """What `subprocess.run(..., capture_output=True, text=True)` would have given."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str


@contextlib.contextmanager
def _process(env: dict[str, str], cwd: Path | None) -> Iterator[None]:
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    os.environ.clear()
    os.environ.update(env)
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def _stream() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace",
                            newline="", write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return buffer.getvalue().decode("utf-8", errors="replace")


def cli(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None,
        inherit: bool = True) -> Ran:
    """`mcptest ARGS` through `mcptest.cli.main.main`, without provider keys, plus `env`; with
    `inherit=False` the environment is `env` alone (a subprocess given `env=`)."""
    argv = [str(a) for a in args]
    out, err = _stream(), _stream()
    environ = {**keyless(os.environ), **(env or {})} if inherit else dict(env or {})
    with _process(environ, cwd), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse: --help, --version, a usage error
            if isinstance(e.code, str):  # what the interpreter does with sys.exit("text")
                print(e.code, file=sys.stderr)
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return Ran(argv, code, _text(out), _text(err))
