"""The words every format uses for a gap category (its advice) and for an exit code (its
meaning and verdict), kept apart from the display logic of `display.py` that reads them."""

from __future__ import annotations

from mcptest.exit_codes import ExitCode

BAND_LEGEND = (
    "🟢 high agreement (α ≥ 0.8) · 🟡 medium (0.667 ≤ α < 0.8) · "
    "🔴 low (α < 0.667 or undefined): the verdict stands, a person should look"
)

GAP_ADVICE: dict[str, str] = {
    "transport": "the server was unreachable or crashed: check its command or URL and the "
    "stderr tail",
    "protocol": "the server sent malformed MCP: check its SDK and protocol version",
    "suite": "the suite names what the server does not have: fix the tool name "
    "(`mcptest validate --connect` checks tool names before a run) or the target path (only a "
    "run sees an answer: the row's message names the closest key)",
    "tool-error": "the tool answered with isError or a JSON-RPC error: read the error text "
    "and the arguments sent",
    "shape": "a deterministic check failed: the answer changed; fix the server or update the "
    "expectation",
    "judgment": "the judges failed the answer: read their reasons; fix the answer or sharpen "
    "the rubric",
    "judge-reliability": "judges disagreed, abstained or errored: sharpen the rubric, add "
    "repetitions or jurors, and have a person review",
    "judge-calibration": "the judge is uncalibrated or fails answers people pass too often: "
    "add labels and run `mcptest calibrate`, then sharpen the rubric (docs/calibration.md)",
    "budget": "the --max-cost cap stopped judge calls: raise the cap or keep the cache "
    "between runs",
    "environment": "a key, command or endpoint is missing: set the judge API key, install the "
    "server's command, or make the judge's URL reachable from where mcptest runs",
    "flaky": "repetitions disagreed: read the failing repetition, sharpen the rubric or the "
    "check, or set min_pass_rate for a test that is allowed to wobble",
    "selection": "models picked another tool for some prompts: read each prompt's votes and "
    "sharpen the tool descriptions that lose or tie (docs/selection.md)",
    "replay": "the server answered differently from the model cassette: read the turn diff; "
    "if the change is meant, record again (`mcptest run --models record`, docs/cassettes.md)",
}
LEADING_GAPS = 3
"""Advice is given for this many of the most frequent gap categories."""

EXIT_MEANING: dict[int, str] = {
    ExitCode.OK: "nothing failed (a test not judged is not a pass)",
    ExitCode.TESTS_FAILED: "a test failed or errored",
    ExitCode.USAGE_ERROR: "invalid invocation or suite; nothing ran",
    ExitCode.SERVER_NOT_READY: "a server never became ready",
    ExitCode.INCOMPLETE: "nothing failed, but something was skipped or not yet available",
    ExitCode.POLICY_STOP: "stopped by the budget cap before every judge call was sent",
    ExitCode.NO_TESTS: "no tests were selected",
    ExitCode.INTERRUPTED: "interrupted; the report holds what had finished",
    ExitCode.INTERNAL_ERROR: "internal error of mcptest (not a test verdict); the report holds "
                             "what had finished",
}
VERDICT: dict[int, tuple[str, str]] = {
    ExitCode.OK: ("✅", "passed"),
    ExitCode.TESTS_FAILED: ("❌", "failed"),
    ExitCode.USAGE_ERROR: ("⛔", "invalid"),
    ExitCode.SERVER_NOT_READY: ("💥", "server not ready"),
    ExitCode.INCOMPLETE: ("⚠️", "incomplete"),
    ExitCode.POLICY_STOP: ("🛑", "budget stop"),
    ExitCode.NO_TESTS: ("⚪", "no tests"),
    ExitCode.INTERRUPTED: ("⏹️", "interrupted"),
    ExitCode.INTERNAL_ERROR: ("🐞", "internal error"),
}
