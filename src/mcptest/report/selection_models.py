"""What a selection row measured (docs/selection.md): per prompt the votes of `k` samples, and
for the row the accuracy with its Wilson interval, ties, the smallest winning margin, argument
accuracy and tokens; and, against a baseline, how they moved. Part of the canonical report."""

from __future__ import annotations

from pydantic import Field

from mcptest.report.base import Count, Interval, Model, Rate


class PromptVotes(Model):
    """One prompt: which tool each scored sample picked (`(no tool)`: it answered instead)."""

    prompt: str
    """The prompt as the suite writes it."""
    expected: str
    """The tool the prompt should lead to."""
    votes: dict[str, Count] = Field(default_factory=dict)
    """Tool name → how many scored samples picked it first, most votes first; `(no tool)`
    counts samples that answered in text."""
    scored: Count = 0
    """Samples that answered (an error or a refused sample is not a vote)."""
    won: bool = False
    """The expected tool had more votes than any other choice."""
    tie: bool = False
    """The most votes were shared by two or more choices."""
    margin: int | None = None
    """Votes for the expected tool minus the runner-up's; null when nothing was scored."""
    args_checked: Count = 0
    """Samples that picked the expected tool, when the prompt has an argument pattern."""
    args_matched: Count = 0
    """Of `args_checked`, the samples whose arguments matched the prompt's `args`."""


class SelectionStats(Model):
    """One model on one server's prompts."""

    k: Count
    """Samples asked per prompt."""
    prompts: Count
    """Prompts in the corpus."""
    scored: Count
    """Prompts with at least one scored sample: the accuracy's denominator."""
    won: Count
    """Scored prompts whose expected tool won the vote outright."""
    accuracy: Rate | None
    """`won / scored`; null when no prompt was scored."""
    accuracy_ci95: Interval | None = None
    """Wilson 95% interval of the accuracy over the scored prompts; null when none was."""
    ties: Count = 0
    """Scored prompts whose most votes were shared by two or more choices."""
    margin: int | None = None
    """The smallest margin of any scored prompt (the one closest to flipping); null when none
    was scored."""
    args_checked: Count = 0
    """Samples, over all prompts with an argument pattern, that picked the expected tool."""
    args_matched: Count = 0
    """Of `args_checked`, the samples whose arguments matched."""
    args_accuracy: Rate | None = None
    """`args_matched / args_checked`; null when no argument was checked."""
    samples: Count = 0
    """Scored samples in all."""
    prompt_tokens: Count = 0
    """Prompt tokens of every sample, as the provider counted them (recorded ones in a
    replay)."""
    completion_tokens: Count = 0
    """Completion tokens of every sample."""
    min_accuracy: Rate = 1.0
    """The block's `min_accuracy` gate."""
    min_margin: int | None = None
    """The block's `min_margin` gate; null when unset."""
    per_prompt: list[PromptVotes] = Field(default_factory=list)
    """Each prompt's votes, in the corpus's order."""


class SelectionChange(Model):
    """A selection row against the baseline's: the headline of the comparison."""

    id: str
    """The row's id, the same in both runs."""
    name: str
    """The row's name."""
    old_won: Count
    """Prompts won on the baseline."""
    old_scored: Count
    """Prompts scored on the baseline."""
    new_won: Count
    """Prompts won in this run."""
    new_scored: Count
    """Prompts scored in this run."""
    old_margin: int | None = None
    """The smallest margin on the baseline; null when nothing was scored."""
    new_margin: int | None = None
    """The smallest margin in this run; null when nothing was scored."""
    old_cost_usd: float | None = None
    """What the row cost on the baseline, in US dollars; null when unknown."""
    new_cost_usd: float | None = None
    """What the row cost in this run, in US dollars; null when unknown."""
