#!/usr/bin/env bash
# Builds the Action's Docker image and runs it the way GitHub runs a Docker action; the checks
# live in tests/action/docker_e2e.py. Needs the container engine of ../shared/ci (it starts one
# here if none runs). Also proves the image judges (an llm-judge and an llm-jury suite against
# a loopback judge server). Prints the image size and the cold start of a local `docker run`.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
engine="$root/../shared/ci/container-engine.sh"
cd "$root"
bash "$engine" >/dev/null
docker=$(bash "$engine" --client)
image=${MCPTEST_E2E_IMAGE:-mcptest-action:e2e}
python=${PYTHON:-$root/.venv/bin/python}
# The release workflow's build command, for the host architecture; nothing is pushed.
started=$(date +%s)
DOCKER="$docker" PUSH=false bash .ci/build-image.sh "$image"
echo "docker-e2e: image built in $(( $(date +%s) - started )) s"
exec "$python" tests/action/docker_e2e.py --docker "$docker" --image "$image"
