"""The Action's image: cold build time and size, measured as a user's builder sees them.

Builds the repository's Dockerfile from scratch with BuildKit (`DOCKER_BUILDKIT=1 docker build
--no-cache`: every step runs again; only the local `debian:bookworm-slim` base is reused), then
prints the wall time of the build, the image's size as `docker images` shows it, the size of
each layer, and the image's `node --version` and `python3 --version`. Targets (docs/action.md,
"What is in the image"): no larger and no slower than the image it replaced (459 MB, 9.4 min).

    bash ../shared/ci/container-engine.sh          # a Docker engine and the base image
    .venv/bin/python bench/bench_image.py [--docker /usr/bin/docker] [--tag mcptest-bench]
        [--dockerfile Dockerfile] [--keep]

The engine script's client is Debian's `docker` 20.10, which has BuildKit built in; a newer
client needs the buildx plugin for BuildKit.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def docker(client: str, *args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([client, *args], text=True, capture_output=True, check=True, **kw)


def build(client: str, tag: str, dockerfile: str) -> float:
    env = {**os.environ, "DOCKER_BUILDKIT": "1"}
    started = time.monotonic()
    done = subprocess.run([client, "build", "--no-cache", "--progress", "plain", "-f", dockerfile,
                           "-t", tag, "."], cwd=REPO, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    elapsed = time.monotonic() - started
    if done.returncode != 0:
        print(done.stdout[-4000:], file=sys.stderr)
        raise SystemExit(f"bench_image: the build failed (exit {done.returncode})")
    return elapsed


def layers(client: str, tag: str) -> list[tuple[int, str]]:
    out = docker(client, "history", "--no-trunc", "--human=false", "--format",
                 "{{.Size}}\t{{.CreatedBy}}", tag).stdout
    rows = []
    for line in out.splitlines():
        size, _, created = line.partition("\t")
        if int(size):
            rows.append((int(size), " ".join(created.split())[:110]))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docker", default="/usr/bin/docker")
    ap.add_argument("--tag", default="mcptest-bench:cold")
    ap.add_argument("--dockerfile", default="Dockerfile")
    ap.add_argument("--keep", action="store_true", help="keep the image afterwards")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    seconds = build(args.docker, args.tag, args.dockerfile)
    size = int(docker(args.docker, "image", "inspect", "--format", "{{.Size}}", args.tag)
               .stdout.strip())
    versions = docker(args.docker, "run", "--rm", "--entrypoint", "sh", args.tag, "-c",
                      "node --version; python3 --version; npx --version").stdout.split()
    print(f"cold build (BuildKit, --no-cache): {seconds / 60:.1f} min ({seconds:.0f} s), "
          f"load average before {load:.1f}")
    print(f"image size: {size / 1e6:.0f} MB ({size} bytes)")
    print(f"node {versions[0]}, python {versions[2]}, npx {versions[3]}")
    print("layers (bytes, created by):")
    for nbytes, created in layers(args.docker, args.tag):
        print(f"  {nbytes / 1e6:7.1f} MB  {created}")
    if not args.keep:
        docker(args.docker, "image", "rm", args.tag)
    return 0


if __name__ == "__main__":
    sys.exit(main())
