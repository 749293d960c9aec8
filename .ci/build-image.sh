#!/usr/bin/env bash
# Builds the Action's image: the one command both the release workflow (.github/workflows/
# release.yml) and .ci/run (through .ci/docker-e2e.sh) run, so what CI builds is what we publish.
#
#   .ci/build-image.sh IMAGE:TAG [IMAGE:TAG...]
#
# Environment:
#   DOCKER          the docker client (default: docker)
#   PLATFORMS       e.g. linux/amd64,linux/arm64 (default: the host's; needs buildx when set)
#   PUSH=true       push to the registry instead of loading locally: the release workflow sets it
#                   after logging in; without it the push is skipped (no credentials in .ci/run)
#   GITHUB_OUTPUT   when set (in Actions), `digest=sha256:…` of the pushed image is appended
#
# With buildx (GitHub's runners): one multi-platform build, provenance (mode=max) and SBOM
# attestations attached in the registry when pushing. Without buildx (this repository's CI
# engine, Debian's docker 20.10, whose client has BuildKit built in): BuildKit through
# DOCKER_BUILDKIT=1, for the host architecture. The legacy builder is deprecated; the
# Dockerfile's two stages run in parallel under BuildKit.
set -euo pipefail
cd "$(dirname "$0")/.."
(( $# )) || { echo "usage: $0 IMAGE:TAG [IMAGE:TAG...]" >&2; exit 2; }
docker=${DOCKER:-docker}
tags=()
for t in "$@"; do tags+=(--tag "$t"); done

if "$docker" buildx version >/dev/null 2>&1; then
  args=(buildx build "${tags[@]}")
  [[ -n "${PLATFORMS:-}" ]] && args+=(--platform "$PLATFORMS")
  if [[ "${PUSH:-}" == true ]]; then
    meta=$(mktemp)
    "$docker" "${args[@]}" --provenance=mode=max --sbom=true --push --metadata-file "$meta" .
    digest=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["containerimage.digest"])' "$meta")
    rm -f "$meta"
    echo "build-image: pushed $* ($digest)"
    [[ -n "${GITHUB_OUTPUT:-}" ]] && echo "digest=$digest" >>"$GITHUB_OUTPUT"
  else
    "$docker" "${args[@]}" --load .
    echo "build-image: built $* (push skipped: PUSH is not true, no registry credentials)"
  fi
else
  if [[ "${PUSH:-}" == true || "${PLATFORMS:-}" == *,* ]]; then
    echo "build-image: pushing or several platforms needs docker buildx" >&2; exit 2
  fi
  DOCKER_BUILDKIT=1 "$docker" build -q "${tags[@]}" . >/dev/null
  echo "build-image: built $* for the host architecture (BuildKit; push skipped)"
fi
