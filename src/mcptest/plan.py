"""Suites → a plan: the tests to run, with stable ids and source positions. Pure. Selection
(`--filter`, `--tag`, `--shard`) happens here so that the runner only ever sees what it must run,
and so that `--explain`-style projections (judge calls, servers to start) are exact."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol, cast

from mcptest.errors import UsageError
from mcptest.report.base import Location

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from mcptest.suite.load import LoadedSuite
    from mcptest.suite.models import (
        AgentTest,
        Assertion,
        EvalSpec,
        ListTest,
        PromptTest,
        ResourceTest,
        SelectionSpec,
        ToolTest,
    )

    # the kinds are told apart by `Kind`: a run loads only its sections' models
    Spec = ToolTest | ResourceTest | PromptTest | ListTest | EvalSpec | AgentTest | SelectionSpec

    class _Served(Protocol):  # every kind of test but an agent's names one server
        server: str | None


Kind = Literal["tool", "resource", "prompt", "list", "eval", "agent", "selection"]
SERVER_KINDS: frozenset[str] = frozenset({"tool", "resource", "prompt", "list"})
"""Kinds whose test is one request to one server, run in order on that server's connection."""


@dataclass(frozen=True)
class PlannedAssertion:
    index: int
    assertion: Assertion
    location: Location

    @property
    def is_llm(self) -> bool:
        from mcptest.suite.models import is_llm_matcher

        return is_llm_matcher(self.assertion.matcher)

    @property
    def reads_jury(self) -> bool:
        return self.assertion.target.split(".", 1)[0].split("[", 1)[0] == "jury"


@dataclass(frozen=True)
class PlannedTest:
    id: str
    kind: Kind
    name: str
    suite: LoadedSuite = field(repr=False)
    spec: Spec = field(repr=False)
    location: Location
    assertions: tuple[PlannedAssertion, ...]
    tags: tuple[str, ...]
    cell: tuple[tuple[str, str], ...] = ()
    """Matrix coordinates of this row (`model`, `prompt`); empty for a test with one row."""
    model: str | None = None
    """The row's model: the agent model, or the matrix model of an eval cell."""
    prompt: str | None = None
    """The row's prompt when a matrix varies it (else the spec's own)."""
    case: str | None = None
    """The name of the row's case when the test has `cases:` (docs/suites.md#tables-of-cases)."""

    @property
    def suite_file(self) -> str:
        return self.suite.display_path

    @property
    def server(self) -> str | None:
        return None if self.kind == "agent" else cast("_Served", self.spec).server

    @property
    def server_key(self) -> tuple[str, str] | None:
        """Servers are per suite file: two files may both name a server `api`."""
        return (self.suite.display_path, self.server) if self.server else None


@dataclass(frozen=True)
class Plan:
    suites: tuple[LoadedSuite, ...]
    tests: tuple[PlannedTest, ...]
    selected_from: int
    """How many tests the suites hold before selection."""
    shard: tuple[int, int] | None = None
    """(i, n) when this plan is the i-th of n shards."""
    unsharded: tuple[str, ...] = ()
    """With a shard: the ids of the whole selection in order, so `mcptest merge` can put the
    shards' rows back in that order and tell when a shard is missing."""
    whole: tuple[PlannedTest, ...] = ()
    """With a shard: every test of the whole selection, in order (each shard's slice of
    `--max-cost` is in proportion to its tests' projected cost, `judging/shard_slices.py`)."""
    owners: tuple[int, ...] = ()
    """With a shard: the shard (0-based) of each test of `whole`."""

    @property
    def needs_judge(self) -> bool:
        """Evals always judge and agents always call a model, so both need the engine; so does
        a server test whose sampling requests a model may answer (docs/suites.md)."""
        return any(t.kind not in SERVER_KINDS or any(a.is_llm for a in t.assertions)
                   or _samples_with_a_model(t) for t in self.tests)

    def server_keys(self) -> list[tuple[str, str]]:
        """Every (suite file, server) the plan will start: tool tests, agents, live evals."""
        seen: dict[tuple[str, str], None] = {}
        for t in self.tests:
            names: list[str] = []
            if t.kind == "agent":
                names = list(cast("AgentTest", t.spec).servers)
            elif t.kind == "eval":
                spec = cast("EvalSpec", t.spec)
                names = [spec.server] if spec.server and spec.response is None else []
            elif t.server:
                names = [t.server]
            for name in names:
                seen[(t.suite_file, name)] = None
        return list(seen)


def _samples_with_a_model(t: PlannedTest) -> bool:
    """Whether a `client.sampling` answer of the test, its server or its file is a model."""
    server = t.suite.suite.servers.get(t.server) if t.server else None
    blocks = (getattr(t.spec, "client", None), server.client if server else None,
              t.suite.suite.client)
    return any(a.model is not None for b in blocks if b is not None for a in b.sampling)


def _location(suite: LoadedSuite, *path: str | int) -> Location:
    pos = suite.pos(*path)
    return Location(file=suite.display_path, line=pos.line, column=pos.column)


def _tests_of(suite: LoadedSuite, *, evals: bool, agents: bool, tools: bool) -> list[PlannedTest]:
    out: list[PlannedTest] = []
    groups: list[tuple[Kind, str, Sequence[Spec]]] = []
    if tools:
        groups.append(("tool", "tools", suite.suite.tools))
        groups.append(("resource", "resources", suite.suite.resources))
        groups.append(("prompt", "prompts", suite.suite.prompts))
        groups.append(("list", "lists", suite.suite.lists))
    if evals:
        groups.append(("eval", "evals", suite.suite.evals))
    if agents:
        groups.append(("agent", "agents", suite.suite.agents))
    given = suite.suite.defaults
    if agents:  # a selection block's rows are model-driven, like an agent test's
        out += [_row(suite, "selection", spec.title, spec, _location(suite, "selection", server),
                     (), cell, model)
                for server, spec in suite.suite.selection.items()
                for cell, model, _ in _cells("selection", spec)]
    for kind, key, specs in groups:
        defaults = given.expect if given is not None and kind in given.kinds else []
        for i, template in enumerate(specs):
            for case, spec, location in _variants(suite, key, i, template):
                expect = getattr(spec, "expect", None)
                assertions = () if expect is None else tuple(
                    PlannedAssertion(j, a, _location(suite, key, i, "expect", j))
                    for j, a in enumerate(expect)
                ) + tuple(
                    PlannedAssertion(len(expect) + j, a, _location(suite, "defaults", "expect", j))
                    for j, a in enumerate(defaults)
                )
                for cell, model, prompt in _cells(kind, spec):
                    cell = ((("case", case),) if case is not None else ()) + cell
                    out.append(_row(suite, kind, spec.name, spec, location, assertions, cell,
                                    model, prompt, case))
    return out


def _row(suite: LoadedSuite, kind: Kind, name: str, spec: Spec, location: Location,
         assertions: tuple[PlannedAssertion, ...], cell: tuple[tuple[str, str], ...],
         model: str | None, prompt: str | None = None, case: str | None = None) -> PlannedTest:
    label = ", ".join(f"{k}={v}" for k, v in cell)
    return PlannedTest(
        id=f"{suite.display_path}::{kind}::{name}" + (f"[{label}]" if cell else ""),
        kind=kind, name=name + (f" [{label}]" if cell else ""), suite=suite, spec=spec,
        location=location, assertions=assertions, tags=tuple(spec.tags), cell=cell,
        model=model, prompt=prompt, case=case)


def _variants(suite: LoadedSuite, key: str, i: int, spec: Spec
              ) -> list[tuple[str | None, Spec, Location]]:
    """The test itself, or one test per case of its table (located at the case's row)."""
    table = suite.cases.get((key, i))
    if table is None:
        return [(None, spec, _location(suite, key, i))]
    return [(c.row.name, c.spec,
             Location(file=c.row.pos.file, line=c.row.pos.line, column=c.row.pos.column))
            for c in table]


def _cells(kind: Kind, spec: Spec
           ) -> list[tuple[tuple[tuple[str, str], ...], str | None, str | None]]:
    """One row per agent or selection model, one per eval matrix cell (named by its
    coordinates)."""
    if kind in ("agent", "selection"):
        named = cast("AgentTest | SelectionSpec", spec).models
        if len(named) == 1:
            return [((), named[0], None)]
        return [((("model", m),), m, None) for m in named]
    if kind == "eval" and (spec := cast("EvalSpec", spec)).matrix is not None:
        models: list[str | None] = list(spec.matrix.models) or [None]
        prompts: list[tuple[int, str] | None] = list(enumerate(spec.matrix.prompts, 1)) or [None]
        rows = []
        for m in models:
            for p in prompts:
                coords = ([("model", m)] if m is not None else []) + (
                    [("prompt", str(p[0]))] if p is not None else [])
                rows.append((tuple(coords), m, p[1] if p is not None else None))
        return rows
    return [((), None, None)]


def parse_shard(text: str) -> tuple[int, int]:
    """`2/4` → (2, 4); shards are numbered from 1."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise UsageError(f"--shard must look like i/n with 1 ≤ i ≤ n, got {text!r}")
    return int(m.group(1)), int(m.group(2))


def _name_filter(pattern: str | None) -> re.Pattern[str] | None:
    if pattern is None:
        return None
    if pattern.startswith("re:"):
        try:
            return re.compile(pattern[3:])
        except re.error as e:
            raise UsageError(f"--filter: regex does not compile: {e}") from None
    return re.compile(re.escape(pattern), re.IGNORECASE)


def build_plan(
    suites: list[LoadedSuite],
    *,
    filter: str | None = None,
    tags: list[str] | None = None,
    skip_tags: list[str] | None = None,
    shard: tuple[int, int] | None = None,
    shard_weights: Mapping[str, float] | None = None,
    tools: bool = True,
    evals: bool = False,
    agents: bool = True,
    judged_tools_only: bool = False,
) -> Plan:
    """Select the tests to run. `filter` is a case-insensitive substring, or `re:PATTERN`;
    a test runs when it has any of `tags` (if given) and none of `skip_tags`. `shard_weights`
    (test id → duration of a previous run) balances the shards by duration instead of by
    count (docs/action.md, "Shards"). `judged_tools_only` keeps the tool tests that have a
    judged assertion (`mcptest eval`)."""
    every = [t for s in suites for t in _tests_of(s, evals=evals, agents=agents, tools=tools)]
    if judged_tools_only:
        every = [t for t in every if t.kind != "tool" or any(a.is_llm for a in t.assertions)]
    name_re = _name_filter(filter)
    chosen = [
        t for t in every
        if (name_re is None or name_re.search(t.name) or name_re.search(t.id))
        and (not tags or set(tags) & set(t.tags))
        and not set(skip_tags or ()) & set(t.tags)
    ]
    if shard is None:
        return Plan(suites=tuple(suites), tests=tuple(chosen), selected_from=len(every))
    i, n = shard
    ids = [t.id for t in chosen]
    owner = (balanced_shards(ids, shard_weights, n) if shard_weights is not None
             else [k % n for k in range(len(ids))])
    return Plan(suites=tuple(suites), tests=tuple(t for t, o in zip(chosen, owner, strict=True)
                                                  if o == i - 1),
                selected_from=len(every), shard=shard, unsharded=tuple(ids),
                whole=tuple(chosen), owners=tuple(owner))


def balanced_shards(ids: Sequence[str], weights: Mapping[str, float], n: int) -> list[int]:
    """The shard (0-based) of each test: longest processing time first. Tests go in order of
    their previous duration, longest first (ties by id), each to the shard with the least
    total so far (ties to the lowest). A test without a previous duration counts as the
    median of the known ones. The result depends only on the ids and the weights, so every
    machine of a CI matrix computes the same split."""
    known = sorted(weights[t] for t in ids if t in weights)
    default = known[len(known) // 2] if known else 1.0
    load = [0.0] * n
    owner = [0] * len(ids)
    for k in sorted(range(len(ids)), key=lambda k: (-weights.get(ids[k], default), ids[k])):
        target = min(range(n), key=lambda s: (load[s], s))
        owner[k] = target
        load[target] += weights.get(ids[k], default)
    return owner
