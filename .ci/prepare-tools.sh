#!/usr/bin/env bash
# Prepares what the tests use but do not install themselves (docs/architecture.md, "Tests"):
# the pinned npm packages of tests/tools/package.json (SARIF Multitool, tap-parser,
# server-everything, …) into tests/tools/node_modules, and, in CI, Debian's Chromium for the
# screenshot tests of the HTML report and the PR comment (with an emoji font, so the comment's
# marks draw). Without npm (or, outside CI, without Chromium) the tests that need them skip with
# a visible reason; in CI (CI set) they fail instead, so nothing is skipped silently there.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=tests/tools
if command -v npm >/dev/null 2>&1; then
  stamp="$tools/node_modules/.prepared"
  if [[ ! -f "$stamp" || "$tools/package.json" -nt "$stamp" ]]; then
    npm install --prefix "$tools" --no-audit --no-fund --loglevel=error >/dev/null
    # npm may skip a package's chmod step; the Multitool's native binary must be executable
    find "$tools/node_modules/@microsoft/sarif-multitool"* -name 'Sarif.Multitool' -type f \
      -exec chmod +x {} + 2>/dev/null || true
    touch "$stamp"
  fi
else
  echo "prepare-tools: npm is not installed; tests that need npm packages will skip" >&2
fi
emoji=/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf  # Debian's fonts-noto-color-emoji
if [[ -n "${CI:-}" ]] && { ! command -v chromium >/dev/null 2>&1 || [[ ! -f $emoji ]]; }; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
fi
