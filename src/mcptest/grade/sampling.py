"""The sampling temperature of repeated gradings of one answer (docs/jury.md, "Repetitions";
docs/evals.md, "a jury").

Asking one model the same question N times only adds information when it samples: at
temperature 0 the N answers are the same answer, paid N times. So repeated gradings (an eval
`jury: {size: N}`, an `llm-jury` juror's `repetitions: N`) use the temperature given for them,
else the suite's `judge.temperature` when it is above 0, else `REPEAT_TEMPERATURE`. A temperature
given on an `llm-jury` is sent even without repetitions: a setting in the suite is never dropped.
"""

from __future__ import annotations

from mcptest.suite.models import JudgeDefaults

REPEAT_TEMPERATURE = 0.7
"""Used when neither the repeated grading nor the suite's judge block sets a temperature above
0."""


def repeated_sampling(temperature: float | None, defaults: JudgeDefaults | None) -> JudgeDefaults:
    """The judge settings of repeated gradings; `temperature` is the one given for them."""
    base = defaults or JudgeDefaults()
    if temperature is not None:
        t = temperature
    else:
        t = base.temperature if base.temperature > 0 else REPEAT_TEMPERATURE
    return base.model_copy(update={"temperature": t})
