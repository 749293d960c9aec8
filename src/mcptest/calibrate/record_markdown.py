"""The calibration record as text: a confusion table, the figures and the disagreements.

One markdown layout serves both the terminal and the `.md` file written next to the JSON record.
Candidates and reasons are model and human text: in the file they are escaped as inert markdown,
on the terminal stripped of control characters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mcptest.calibrate.cascade_render import render_cascade
from mcptest.reporters.escape import md_inline, shorten, terminal

if TYPE_CHECKING:
    from mcptest.calibrate.record import CalibrationRecord
    from mcptest.calibrate.stats import Figures, Rate
    from mcptest.report.base import Interval

Escape = Callable[[object, int], str]


def plain(value: object, limit: int) -> str:
    """For the terminal: control characters stripped, one line, `|` kept off table borders."""
    text = terminal(str(value)).replace("\n", " ").replace("|", "¦")
    return shorten(text, limit)


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _rate(r: Rate) -> str:
    if r.rate is None:
        return "n/a (no such labels)"
    ci = f" [{r.ci95.low:.1%}, {r.ci95.high:.1%}]" if r.ci95 else ""
    return f"{r.rate:.1%} ({r.hits}/{r.of}){ci}"


def _ci(i: Interval | None) -> str:
    return "" if i is None else f" [{i.low:.3f}, {i.high:.3f}]"


def _figure_row(name: str, f: Figures) -> str:
    return (f"| {name} | {f.labels} | {_num(f.kappa)}{_ci(f.kappa_ci95)} | "
            f"{_num(f.alpha)}{_ci(f.alpha_ci95)} | {_num(f.accuracy)}{_ci(f.accuracy_ci95)} | "
            f"{_rate(f.false_pass)} | {_rate(f.false_fail)} |")


def _jurors(record: CalibrationRecord, esc: Escape) -> list[str]:
    """Whether the jurors err together: the pairwise error correlations, what the jury is worth
    in independent jurors, and a warning per pair that errs together."""
    if not record.error_correlation:
        return []
    lines = ["## Jurors that make the same mistakes", "",
             "| jurors | labels | errors | both wrong | error correlation |",
             "|---|---|---|---|---|"]
    lines += [f"| `{esc(p.jurors[0], 80)}` · `{esc(p.jurors[1], 80)}` | {p.labels} | "
              f"{p.errors[0]}, {p.errors[1]} | {p.both_wrong} | {_num(p.correlation)} |"
              for p in record.error_correlation]
    n = len(record.jurors)
    worth = ("n/a (no pair of jurors both erred and got some right)"
             if record.effective_jurors is None else f"{record.effective_jurors:.2f} of {n}")
    lines += ["", f"Effective number of independent jurors: {worth}", ""]
    lines += [f"⚠ {esc(w, 400)}" for w in record.warnings]
    return lines + ([""] if record.warnings else [])


def render_markdown(record: CalibrationRecord, esc: Escape = md_inline) -> str:
    v, ident = record.verdict, record.identity
    c = v.confusion
    lines = [
        f"# Calibration of `{ident.kind}` against `{esc(record.labels_file, 200)}`",
        "",
        f"- rubric: {esc(ident.rubric, 300)}",
        f"- threshold {ident.threshold:g} · judges: "
        + ", ".join(f"`{esc(m, 80)}`" for m in ident.models)
        + (f" · quorum {ident.quorum:g}" if ident.quorum is not None else "")
        + f" · prompt {ident.prompt_version}",
        f"- identity `{record.identity_hash}` · {record.created_at}",
        f"- {record.labels} label(s), {record.unjudged} without a verdict",
        "",
        "## Confusion (rows: humans, columns: judge)",
        "",
        "| | judge pass | judge fail |",
        "|---|---|---|",
        f"| human pass | {c.both_pass} | {c.false_fail} (false fail) |",
        f"| human fail | {c.false_pass} (false pass) | {c.both_fail} |",
        "",
        "## Agreement with the humans",
        "",
        "| coder | labels | Cohen's κ [95% CI] | Krippendorff's α [95% CI] | accuracy [95% CI] "
        "| false pass [95% CI] | false fail [95% CI] |",
        "|---|---|---|---|---|---|---|",
        _figure_row("verdict" if ident.kind == "llm-judge" else "jury verdict", v),
        *(_figure_row(f"`{esc(m, 80)}`", f) for m, f in record.jurors.items()),
        "",
    ]
    if v.kappa_below_floor is not None:
        lines += [f"{v.kappa_below_floor:.0%} of 2,000 resamples of the labels give a κ below "
                  "the gate's floor.", ""]
    if record.panel_alpha is not None:
        lines += [f"α with the humans and every juror as coders: {_num(record.panel_alpha)}"
                  f"{_ci(record.panel_alpha_ci95)}", ""]
    if v.score_alpha is not None:
        lines += [f"α of the scores (interval), humans vs judge: {_num(v.score_alpha)}", ""]
    if record.cascade is not None:
        lines += render_cascade(record.cascade, esc)
    for model in record.lowers_agreement:
        lines += [f"⚠ juror `{esc(model, 80)}` lowers the jury's agreement with the "
                  "humans: without it κ would be higher.", ""]
    lines += _jurors(record, esc)
    lines += [f"## Disagreements ({len(record.disagreements)})", ""]
    if record.disagreements:
        lines += ["| label | candidate | human | judge | score | reason |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| {esc(d.label, 40)} | {esc(d.candidate, 200)} | "
                  f"{esc(d.human, 20)} | {d.judge} | {_num(d.score)} | "
                  f"{esc(d.reason or '', 300)} |" for d in record.disagreements]
    else:
        lines.append("None: the judge agreed with every label it judged.")
    return "\n".join(lines) + "\n"
