"""Custom judges (docs/cascade.md): a Python callable `module:function`, or an external command that
reads one JSON document on stdin and prints one verdict JSON on stdout.

The context both receive is a `JudgeContext` (mcptest/evals/context.py): `candidate` (alias
`output`), `rubric` (alias `criteria`), `input` (the tool arguments or the agent prompt),
`target`, `test`, `test_id`, `suite_file`, the test's `reference` and the item's `metadata`
(`item_metadata`). A verdict is
`{verdict: pass|fail, score?, reasoning?, cost_usd?}`; without `verdict`, `score ≥ threshold`
decides. A Python callable may also return a bool or a number, and may be async. The judge is
the suite author's own code, run like a server command: never anything from a model or server.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import math
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.evals.context import JudgeContext, JudgeItem

if TYPE_CHECKING:
    from pathlib import Path

    from mcptest.suite.models import CustomJudgeSpec


@dataclass(frozen=True)
class CustomVerdict:
    passed: bool | None
    score: float | None
    reasoning: str | None
    cost_usd: float
    error: str | None = None
    """Why there is no verdict (import failure, non-zero exit, unreadable output)."""


def item_metadata(test: Any, response: Any) -> JudgeItem:
    """What a custom judge knows of the item it grades (docs/cascade.md): the test, its tags,
    server and tool (an agent test: its prompt), the whole answer, the case of a table."""
    spec = test.spec
    meta = JudgeItem(test=test.name, test_id=test.id, tags=list(test.tags), server=test.server,
                     response=response, case=test.case)
    if isinstance(getattr(spec, "servers", None), list):
        meta["servers"] = list(spec.servers)
    if getattr(spec, "tool", None) is not None:
        meta["tool"] = spec.tool
    else:
        meta["prompt"] = test.prompt or getattr(spec, "prompt", None)
    return meta


def judge_name(spec: CustomJudgeSpec) -> str:
    return f"python:{spec.python}" if spec.python else "command:" + " ".join(spec.command or [])


def _load(target: str, base_dir: Path) -> Any:
    module_name, fn_name = target.split(":", 1)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        path = base_dir / (module_name.replace(".", "/") + ".py")
        if not path.is_file():
            raise
        key = f"mcptest_custom_judge_{abs(hash(str(path)))}"
        cached = sys.modules.get(key)
        if cached is not None:
            module = cached
        else:
            loader = importlib.util.spec_from_file_location(key, path)
            assert loader is not None and loader.loader is not None
            module = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(module)
            sys.modules[key] = module
    return getattr(module, fn_name)


def _out_of_range(score: float) -> str | None:
    """Why a score is not one (NaN, infinite, outside 0..1), or None: a weighted mean of such
    a score is meaningless, so it is the judge's error, never a pass (docs/cascade.md)."""
    if math.isfinite(score) and 0 <= score <= 1:
        return None
    return f"the judge returned score {score!r}: a score must be a number from 0 to 1"


def normalise(raw: Any, threshold: float) -> CustomVerdict:
    """Read whatever the judge returned into a verdict (errors become `error`, never a pass)."""
    if isinstance(raw, bool):
        return CustomVerdict(raw, 1.0 if raw else 0.0, None, 0.0)
    if isinstance(raw, int | float):
        if (bad := _out_of_range(raw)) is not None:
            return CustomVerdict(None, None, None, 0.0, bad)
        score = float(raw)
        return CustomVerdict(score >= threshold, score, None, 0.0)
    if not isinstance(raw, dict):
        fields = ("verdict", "score", "reasoning", "cost_usd")
        raw = {k: getattr(raw, k) for k in fields if hasattr(raw, k)}
        if not raw:
            return CustomVerdict(None, None, None, 0.0, "the judge returned no verdict")
    score = raw.get("score")
    if score is not None and not isinstance(score, int | float):
        return CustomVerdict(None, None, None, 0.0, f"score is not a number: {score!r}")
    if score is not None and (bad := _out_of_range(score)) is not None:
        return CustomVerdict(None, None, None, 0.0, bad)
    cost = raw.get("cost_usd") or 0.0
    cost = float(cost) if isinstance(cost, int | float) and cost >= 0 else 0.0
    reasoning = raw.get("reasoning") if isinstance(raw.get("reasoning"), str) else None
    verdict = raw.get("verdict")
    if isinstance(verdict, str) and verdict.lower() in ("pass", "passed", "fail", "failed"):
        passed = verdict.lower().startswith("pass")
    elif isinstance(verdict, bool):
        passed = verdict
    elif score is not None:
        passed = float(score) >= threshold
    else:
        return CustomVerdict(None, None, reasoning, cost, "the verdict has neither a "
                             "`verdict` of pass/fail nor a `score`")
    return CustomVerdict(passed, None if score is None else float(score), reasoning, cost)


async def run_custom(spec: CustomJudgeSpec, context: JudgeContext, base_dir: Path,
                     env: dict[str, str]) -> CustomVerdict:
    try:
        with anyio.fail_after(spec.timeout):
            if spec.python:
                return await _python(spec, context, base_dir)
            return await _command(spec, context, base_dir, env)
    except TimeoutError:
        return CustomVerdict(None, None, None, 0.0, f"no verdict within {spec.timeout:g}s")
    except Exception as e:  # the judge's own bug: an error, never a pass
        return CustomVerdict(None, None, None, 0.0, f"{type(e).__name__}: {e}"[:300])


async def _python(spec: CustomJudgeSpec, context: JudgeContext, base_dir: Path
                  ) -> CustomVerdict:
    fn = _load(spec.python or "", base_dir)
    if inspect.iscoroutinefunction(fn):
        raw = await fn(context)
    else:
        raw = await anyio.to_thread.run_sync(fn, context, abandon_on_cancel=True)
    return normalise(raw, spec.threshold)


async def _command(spec: CustomJudgeSpec, context: JudgeContext, base_dir: Path,
                   env: dict[str, str]) -> CustomVerdict:
    data = json.dumps(context, ensure_ascii=False, default=str).encode()
    returncode, out, err_bytes = await _exchange(spec.command or [], data, base_dir, env)
    if returncode != 0:
        err = err_bytes.decode(errors="replace").strip()[-300:]
        return CustomVerdict(None, None, None, 0.0,
                             f"judge command exited with {returncode}: {err}")
    text = out.decode(errors="replace").strip()
    try:
        raw = json.loads(text.splitlines()[-1] if text else "")
    except (json.JSONDecodeError, IndexError):
        return CustomVerdict(None, None, None, 0.0,
                             f"judge command printed no JSON verdict: {text[:200]!r}")
    return normalise(raw, spec.threshold)


async def _exchange(argv: list[str], data: bytes, cwd: Path, env: dict[str, str]
                    ) -> tuple[int, bytes, bytes]:
    """Run `argv` with `data` on stdin; (exit code, stdout, stderr). A command that exits
    without reading its stdin is told by its exit code, never by a broken pipe of ours."""
    out: list[bytes] = []
    err: list[bytes] = []
    async with await anyio.open_process(argv, cwd=cwd, env=env) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr

        async def feed() -> None:
            try:
                await stdin.send(data)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                pass  # it stopped reading: its exit code says why
            finally:
                await stdin.aclose()

        async def drain(stream: anyio.abc.ByteReceiveStream, sink: list[bytes]) -> None:
            async for chunk in stream:
                sink.append(chunk)

        async with anyio.create_task_group() as tg:
            tg.start_soon(feed)
            tg.start_soon(drain, stdout, out)
            tg.start_soon(drain, stderr, err)
        code = await proc.wait()
    return code, b"".join(out), b"".join(err)
