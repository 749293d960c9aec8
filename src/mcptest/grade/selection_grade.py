"""Counting a selection row (docs/selection.md): each prompt's votes, whether its expected tool
won outright, ties, the winning margin and argument accuracy; the row's accuracy with its
Wilson interval and its gates. Pure: the samples come in, the numbers go out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.grade.tools_called import matches
from mcptest.report.models import Interval, PromptVotes, SelectionStats
from mcptest.stats.intervals import wilson

if TYPE_CHECKING:
    from mcptest.suite.models import SelectionPrompt, SelectionSpec

SHOWN_LOST = 3
"""Lost prompts a failing row names in its message."""


@dataclass(frozen=True)
class SelectionSample:
    """One scored answer: the tool it picked (`NO_TOOL` for none) and that call's arguments."""

    tool: str
    args: Any = None


def votes_of(prompt: SelectionPrompt, samples: list[SelectionSample]) -> PromptVotes:
    votes = Counter(s.tool for s in samples)
    ranked = votes.most_common()
    expected = votes.get(prompt.tool, 0)
    runner_up = max((n for tool, n in ranked if tool != prompt.tool), default=0)
    top = ranked[0][1] if ranked else 0
    checked = [s for s in samples if s.tool == prompt.tool] if prompt.args is not None else []
    return PromptVotes(
        prompt=prompt.prompt, expected=prompt.tool,
        votes=dict(sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))), scored=len(samples),
        won=bool(samples) and expected > runner_up,
        tie=sum(1 for _, n in ranked if n == top) > 1,
        margin=expected - runner_up if samples else None,
        args_checked=len(checked),
        args_matched=sum(1 for s in checked if matches(prompt.pattern,
                                                       {"name": s.tool, "args": s.args})))


def stats_of(spec: SelectionSpec, per_prompt: list[PromptVotes], *, prompt_tokens: int,
             completion_tokens: int) -> SelectionStats:
    scored = [p for p in per_prompt if p.scored]
    won = sum(1 for p in scored if p.won)
    ends = wilson(won, len(scored))
    checked = sum(p.args_checked for p in scored)
    matched = sum(p.args_matched for p in scored)
    margins = [p.margin for p in scored if p.margin is not None]
    return SelectionStats(
        k=spec.k, prompts=len(per_prompt), scored=len(scored), won=won,
        accuracy=round(won / len(scored), 6) if scored else None,
        accuracy_ci95=None if ends is None else Interval(low=round(ends[0], 6),
                                                         high=round(ends[1], 6)),
        ties=sum(1 for p in scored if p.tie), margin=min(margins, default=None),
        args_checked=checked, args_matched=matched,
        args_accuracy=round(matched / checked, 6) if checked else None,
        samples=sum(p.scored for p in scored), prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens, min_accuracy=spec.min_accuracy,
        min_margin=spec.min_margin, per_prompt=per_prompt)


def verdict(s: SelectionStats) -> tuple[bool, str]:
    """(passed, the row's message): the gates `min_accuracy` and `min_margin`, and what failed
    them (the prompts whose expected tool did not win, with their votes)."""
    head = (f"selection {s.won}/{s.scored} (accuracy {s.accuracy or 0:.2f}), ties {s.ties}, "
            f"margin {s.margin}")
    if s.args_accuracy is not None:
        head += f", arguments {s.args_matched}/{s.args_checked}"
    failed = []
    if s.accuracy is not None and s.accuracy < s.min_accuracy:
        failed.append(f"accuracy {s.accuracy:.2f} < min_accuracy {s.min_accuracy:.2f}")
    if s.min_margin is not None and s.margin is not None and s.margin < s.min_margin:
        failed.append(f"margin {s.margin} < min_margin {s.min_margin}")
    if not failed:
        return True, head
    lost = [p for p in s.per_prompt if p.scored and p.margin is not None and (
        not p.won or (s.min_margin is not None and p.margin < s.min_margin))]
    shown = "; ".join(f"{p.prompt[:60]!r} → " + ", ".join(f"{t} {n}" for t, n in p.votes.items())
                      + f" (expected {p.expected})" for p in lost[:SHOWN_LOST])
    more = f"; and {len(lost) - SHOWN_LOST} more" if len(lost) > SHOWN_LOST else ""
    return False, f"{head}: {'; '.join(failed)}" + (f". Closest: {shown}{more}" if lost else "")
