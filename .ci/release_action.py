"""Rewrites action.yml for a release: `runs.image: Dockerfile` becomes the pushed image
(`docker://ghcr.io/OWNER/NAME:vX.Y.Z`), so users of the tag pull instead of build
(docs/releasing.md). Standard library only: it runs on the bare runner.

    python3 .ci/release_action.py ghcr.io/mcptest/action:v1.2.3 [action.yml]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_IMAGE_LINE = re.compile(r"^(  image:) *['\"]?Dockerfile['\"]? *$", re.MULTILINE)
_REFERENCE = re.compile(r"^[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9._-]+)+:v\d+\.\d+\.\d+$")


def rewrite(text: str, image: str) -> str:
    """action.yml's text with its one `image: Dockerfile` line pointing at `image`."""
    if not _REFERENCE.match(image):
        raise ValueError(f"not a lowercase registry/owner/name:vX.Y.Z reference: {image!r}")
    if "\nruns:\n" not in text or len(_IMAGE_LINE.findall(text)) != 1:
        raise ValueError("action.yml must have exactly one `  image: Dockerfile` line under runs:")
    return _IMAGE_LINE.sub(lambda m: f"{m.group(1)} docker://{image}", text)


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    path = Path(argv[1] if len(argv) == 2 else "action.yml")
    try:
        path.write_text(rewrite(path.read_text(encoding="utf-8"), argv[0]), encoding="utf-8")
    except ValueError as e:
        print(f"release_action: {path}: {e}", file=sys.stderr)
        return 2
    print(f"release_action: {path} runs docker://{argv[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
