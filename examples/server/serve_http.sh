#!/usr/bin/env bash
# Start or stop the example server over Streamable HTTP for examples/http.yml.
#
#   MCPTEST_EXAMPLE_TOKEN=demo-token examples/server/serve_http.sh start   # background, waits until ready
#   mcptest run examples/http.yml                                           # same token in the env
#   examples/server/serve_http.sh stop
#
# Settings (environment): MCPTEST_PYTHON (interpreter with `mcp`, default python3),
# MCPTEST_EXAMPLE_PORT (default 8765), MCPTEST_EXAMPLE_TOKEN (required bearer token).
# The pid goes to .mcptest/example-http.pid; the log to .mcptest/example-http.log.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${MCPTEST_PYTHON:-python3}"
port="${MCPTEST_EXAMPLE_PORT:-8765}"
state=".mcptest"
pidfile="$state/example-http.pid"

case "${1:-start}" in
  start)
    : "${MCPTEST_EXAMPLE_TOKEN:?set MCPTEST_EXAMPLE_TOKEN to the bearer token the server requires}"
    mkdir -p "$state"
    "$python" "$here/example_server.py" --http --port "$port" --token "$MCPTEST_EXAMPLE_TOKEN" \
      >"$state/example-http.log" 2>&1 &
    echo $! >"$pidfile"
    for _ in $(seq 1 300); do   # poll the port for up to 30 s
      if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
        echo "example server exited; see $state/example-http.log" >&2; exit 1
      fi
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        echo "example server ready on http://127.0.0.1:$port/mcp (pid $(cat "$pidfile"))"; exit 0
      fi
      sleep 0.1
    done
    echo "example server did not listen on port $port within 30 s" >&2; exit 1
    ;;
  stop)
    if [[ -f "$pidfile" ]]; then
      kill "$(cat "$pidfile")" 2>/dev/null || true
      rm -f "$pidfile"
    fi
    ;;
  *)
    echo "usage: $0 start|stop" >&2; exit 2
    ;;
esac
