"""constraints.txt pins exactly the runtime closure the image needs, at the venv's versions."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def runtime_closure() -> dict[str, str]:
    """name → installed version of everything `pip install .` pulls in (extras followed)."""
    def requires(name: str, extras: frozenset[str]) -> list[Requirement]:
        found = []
        for line in metadata.distribution(name).requires or []:
            req = Requirement(line)
            envs = [{"extra": e} for e in extras] or [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                found.append(req)
        return found

    seen: dict[str, frozenset[str]] = {}
    stack = [(r.name, frozenset(r.extras)) for r in requires("mcptest", frozenset())]
    while stack:
        name, extras = stack.pop()
        key = canonicalize_name(name)
        if key in seen and extras <= seen[key]:
            continue
        seen[key] = seen.get(key, frozenset()) | extras
        stack += [(r.name, frozenset(r.extras)) for r in requires(name, extras)]
    return {key: metadata.version(key) for key in seen}


def pins() -> dict[str, str]:
    found = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            found[canonicalize_name(name)] = version
    return found


def test_every_runtime_dependency_is_pinned_at_the_tested_version() -> None:
    pinned = pins()
    missing = {k: v for k, v in runtime_closure().items() if pinned.get(k) != v}
    assert missing == {}, f"update constraints.txt: {missing}"


def test_nothing_else_is_pinned_but_uv() -> None:
    assert set(pins()) - set(runtime_closure()) == {"uv"}
