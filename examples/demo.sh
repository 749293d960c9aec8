#!/usr/bin/env bash
# `make demo`: every example suite against the bundled example server, over stdio and over
# Streamable HTTP (started here with a throwaway bearer token), then the report on stdout.
#
# Without a judge key (ANTHROPIC_API_KEY, OPENAI_API_KEY, … or MCPTEST_JUDGE_BASE_URL) the LLM
# assertions are deferred and counted as such; with one, the run spends at most $0.10.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}

case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac   # absolute: an installed venv elsewhere
export MCPTEST_PYTHON="$BIN/python"
export MCPTEST_EXAMPLE_TOKEN="demo-$("$MCPTEST_PYTHON" -c 'import secrets; print(secrets.token_hex(8))')"
export MCPTEST_EXAMPLE_PORT="$("$MCPTEST_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export MCPTEST_START_PORT="$("$MCPTEST_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"   # examples/start.yml

examples/server/serve_http.sh start >/dev/null
trap 'examples/server/serve_http.sh stop' EXIT

mkdir -p .mcptest/demo
status=0
echo "demo: running every example suite against the bundled example server (about 20 s)"
# Tests tagged expected-failure show what a failing run looks like; run them with
#   mcptest run examples/cascade.yml examples/agents.yml
# The terminal gets the summary; every test is in report.txt and the other reports.
"$BIN/mcptest" run examples/*.yml --with-evals --max-cost 0.10 --skip-tag expected-failure \
  --quiet --reporter summary \
  --reporter pretty --output .mcptest/demo/report.txt \
  --reporter json --output .mcptest/demo/run.json \
  --reporter md --output .mcptest/demo/summary.md \
  --reporter html --output .mcptest/demo/report.html \
  --reporter sarif --output .mcptest/demo/mcptest.sarif \
  --reporter junit --output .mcptest/demo/junit.xml || status=$?

# An agent test and a selection test answered by their committed model cassettes: no key, no
# model call, $0, while the example server runs live (docs/cassettes.md, docs/selection.md).
echo
"$BIN/mcptest" run examples/replay.yml examples/selection.yml --models replay --quiet \
  --reporter summary || status=$?

echo
echo "demo: left out on purpose: the tests tagged expected-failure (a failing run); run them with"
echo "      MCPTEST_PYTHON=\$PWD/.venv/bin/python .venv/bin/mcptest run examples/cascade.yml examples/agents.yml"
echo "demo: every test, in full: .mcptest/demo/report.txt; also report.html, summary.md (the PR"
echo "      comment), run.json, mcptest.sarif and junit.xml there; exit code $status"
exit "$status"
