"""Model cassettes: a test's model requests recorded once, then answered from the recording with
no model call and $0 while its MCP servers run live (docs/cassettes.md).

A layer of the one model client (`ModelClient.request`), as the verdict cache is of the judge
engine: agent turns, judges, juries and sampling answered by a model all pass through it, so none
can slip past a replay. `--models record` sends every request and records it; `replay` answers
each from the test's cassette and fails the test when one is not there (a tool answered
differently, so the next turn differs), with the first differing turn as a diff;
`replay-or-record` sends what is missing and records the test again.

The test a request belongs to is the `Tape` its row runs under (`Cassettes.playing`, a context
variable, so the concurrent judge calls of one test and the sampling callbacks of its server
find it). A request's key is the SHA-256 of what was sent, redacted as reports are (kind, model,
messages, tools, temperature and max_tokens): never the endpoint, its key or the route, so a
recording made through a gateway replays with no key at all. The same request asked again (a
repetition, a selection sample) takes the recording's next answer. How an answer is kept is
llm/cassette_codec.py's job; the file itself, llm/cassette_file.py's.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from mcptest.errors import ReadBackError
from mcptest.llm.cassette_codec import encode, stable_ids
from mcptest.llm.cassette_diff import explain_gap, turn
from mcptest.llm.cassette_file import (
    CassetteExchange,
    Recording,
    cassette_text,
    key_of,
    read,
    write_cassette,
)
from mcptest.llm.offline import NotRecorded

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from pathlib import Path

    from mcptest.llm.call import ChatTurn, Reply
    from mcptest.readback.evidence import ChangedEvidence

Mode = Literal["record", "replay", "replay-or-record"]
MODES: tuple[Mode, ...] = ("record", "replay", "replay-or-record")
RECORD_HINT = "record it with `mcptest run --models record`"


@dataclass(frozen=True)
class Tape:
    """The cassette of one report row: its test id, definition hash and file."""

    test: str
    """The row's id in this run."""
    definition: str
    path: Path
    shown: str
    """The path as messages name it (relative to the working directory when it can be)."""
    label: str = ""
    """What the file names the row by: its id without the suite's path, which depends on
    where mcptest was started from."""


_TAPE: contextvars.ContextVar[Tape | None] = contextvars.ContextVar("mcptest_tape", default=None)


def current() -> Tape | None:
    """The tape of the test whose code is running (None outside any test)."""
    return _TAPE.get()


@contextlib.contextmanager
def playing_tape(tape: Tape | None) -> Iterator[None]:
    """Run the block under `tape` (a sampling callback that runs in its connection's task)."""
    token = _TAPE.set(tape)
    try:
        yield
    finally:
        _TAPE.reset(token)


@dataclass(frozen=True)
class Replayed:
    """Where a row's model answers came from."""

    file: str
    changed: bool
    """The pull request changed the file (it differs from the merge-base)."""
    only: bool
    """Every answer of the row was replayed (none was sent live)."""


@dataclass
class _Deck:
    """One tape in this run: what its file recorded and what this run asked."""

    tape: Tape
    recorded: Recording | None = None
    problem: str | None = None
    """Why the file cannot answer (missing, unreadable, stale); None when it can."""
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    cursor: dict[str, int] = field(default_factory=dict)
    used: dict[str, CassetteExchange] = field(default_factory=dict)
    asked: int = 0
    replayed: int = 0
    live: int = 0
    failed: int = 0
    """Live requests that got no answer: a partial recording never replaces a whole one."""
    miss: str | None = None

    def use(self, request: dict[str, Any], key: str, reply: dict[str, Any]) -> None:
        self.used.setdefault(key, CassetteExchange(request, known_key=key)).replies.append(reply)


class Cassettes:
    """The cassettes of one run (every repetition shares them): one file per report row."""

    def __init__(self, mode: Mode, root: Path | None = None,
                 evidence: ChangedEvidence | None = None) -> None:
        self.mode = mode
        self.root = root
        """`--cassette-dir`: where the files go (None: beside each suite, `cassettes/`)."""
        self.evidence = evidence
        """`--evidence-base`: which committed files this pull request changed."""
        self._decks: dict[str, _Deck] = {}
        self.replayed = self.recorded = self.written = 0

    @property
    def replays(self) -> bool:
        return self.mode != "record"

    @contextlib.contextmanager
    def playing(self, tape: Tape) -> Iterator[None]:
        """Run one test's code under its tape."""
        self._deck(tape)
        with playing_tape(tape):
            yield

    def _deck(self, tape: Tape) -> _Deck:
        deck = self._decks.get(tape.test)
        if deck is None:
            deck = self._decks[tape.test] = _Deck(tape)
            if self.replays:
                self._load(deck)
        return deck

    def _load(self, deck: _Deck) -> None:
        tape = deck.tape
        if not tape.path.is_file():
            deck.problem = f"no cassette for this test at {tape.shown}: {RECORD_HINT}"
            return
        try:
            deck.recorded = read(tape.path, tape.shown)
        except ReadBackError as e:
            deck.problem = f"the cassette {e}: {RECORD_HINT} again"
            return
        if deck.recorded.definition != tape.definition:
            deck.problem = (f"the cassette {tape.shown} is stale: the test changed since it was "
                            f"recorded (definition {deck.recorded.definition}, now "
                            f"{tape.definition}); {RECORD_HINT} again")
            return
        for x in deck.recorded.exchanges:
            deck.answers.setdefault(x.key, []).extend(x.replies)

    def replay(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The recorded answer to `request` (redacted), or None to send it live and record it;
        raises `NotRecorded` in a replay that cannot answer it."""
        tape = current()
        if tape is None:
            if self.mode == "replay":
                raise NotRecorded("a model request outside any test cannot be replayed")
            return None
        deck = self._deck(tape)
        deck.asked += 1
        if self.mode == "record":
            return None
        key = key_of(request)
        answers = deck.answers.get(key, [])
        n = deck.cursor.get(key, 0)
        if n < len(answers):
            deck.cursor[key] = n + 1
            deck.use(request, key, answers[n])
            deck.replayed += 1
            self.replayed += 1
            return answers[n]
        if self.mode == "replay-or-record":
            return None
        if deck.problem is not None:
            why = deck.problem
        elif answers:
            why = (f"{turn(request)} was asked {n + 1} times; the cassette recorded "
                   f"{len(answers)} answer(s) to it")
        else:
            assert deck.recorded is not None
            why = explain_gap(request, [e.request for e in deck.recorded.exchanges])
        why = f"model replay ({tape.shown}): {why}"
        deck.miss = deck.miss or why
        raise NotRecorded(why)

    def record(self, request: dict[str, Any], reply: Reply | ChatTurn,
               redact: Callable[[Any], Any]) -> Reply | ChatTurn:
        """Keep a live answer in its test's cassette; the answer the run goes on with (its
        tool-call ids made stable)."""
        tape = current()
        key = key_of(request)
        reply = stable_ids(reply, key)
        if tape is not None:
            deck = self._deck(tape)
            deck.live += 1
            deck.use(request, key, redact(encode(reply)))
            self.recorded += 1
        return reply

    def lost(self) -> None:
        """A live request of the running test got no answer (an error, the budget)."""
        tape = current()
        if tape is not None:
            self._deck(tape).failed += 1

    def source(self, test: str) -> Replayed | None:
        """The cassette the row's model answers came from, when any did."""
        deck = self._decks.get(test)
        if deck is None or deck.replayed == 0:
            return None
        changed = self.evidence is not None and self.evidence.changed(deck.tape.path)
        return Replayed(deck.tape.shown, changed=changed, only=deck.live == 0)

    def missed(self, test: str) -> str | None:
        """Why the test's replay failed (its first request the cassette could not answer)."""
        deck = self._decks.get(test)
        return deck.miss if deck is not None else None

    def save(self, finished: Iterable[str]) -> list[str]:
        """Write the cassettes of the finished tests that sent requests live (`record`: every
        finished test; a test that asked no model loses its old file). A test with a live
        request that got no answer keeps its old file. Returns the files that changed."""
        changed: list[str] = []
        for test in finished:
            deck = self._decks.get(test)
            if deck is None or deck.failed or (self.mode != "record" and deck.live == 0):
                continue
            tape = deck.tape
            if not deck.used:
                if self.mode == "record" and deck.asked == 0 and tape.path.is_file():
                    tape.path.unlink()
                    changed.append(tape.shown)
                continue
            text = cassette_text(Recording(tape.label or tape.test, tape.definition,
                                   list(deck.used.values())))
            if write_cassette(tape.path, text):
                changed.append(tape.shown)
        self.written += len(changed)
        return changed

