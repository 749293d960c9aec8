"""The rubric text of each judge question of an eval, by plain string joining.

The judge engine puts this text under "Rubric:" and the candidate, untrusted, inside its nonce
delimiters; nothing here ever sees the candidate. Calibration anchors are the suite author's
text and render as `Response: "…" -> score 0.75` under a "Calibration examples" heading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.suite.models import Criterion

EVIDENCE_RULE = (
    "Put in `evidence` the exact span of the candidate that justifies your score, copied "
    "verbatim (no paraphrase, no ellipsis). If no span supports a score, leave it empty."
)


def _context(prompt: str | None) -> str:
    if not prompt:
        return ""
    return "".join(["The candidate is the assistant's answer to this request:\n",
                    prompt.strip(), "\n\n"])


def free_form(text: str, prompt: str | None, *, evidence: bool = False) -> str:
    parts = [_context(prompt), text.strip()]
    if evidence:
        parts += ["\n\n", EVIDENCE_RULE]
    return "".join(parts)


def criterion(c: Criterion, prompt: str | None, *, evidence: bool = False) -> str:
    if c.guard:
        head = (f'Criterion "{c.name}" (something that must NOT happen): {c.description}\n'
                "Score 1.0 when this DOES hold for the candidate, 0.0 when it does not.")
    else:
        head = (f'Criterion "{c.name}": {c.description}\n'
                "Score 1.0 when the criterion fully holds for the candidate, 0.0 when it does "
                "not, and in between for a partial fit.")
    parts = [_context(prompt), head]
    if c.examples:
        parts.append("\n\nCalibration examples:")
        for ex in c.examples:
            parts.append(f'\nResponse: "{ex.response}" -> score {ex.score:.2f}')
    if evidence:
        parts += ["\n\n", EVIDENCE_RULE]
    return "".join(parts)


def tree_question(ask: str, prompt: str | None) -> str:
    return "".join([_context(prompt), "Answer this yes/no question about the candidate: ",
                    ask.strip(), "\nScore 1.0 for yes and 0.0 for no."])
