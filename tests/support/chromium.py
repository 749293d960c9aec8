"""Headless Chromium for the tests that look at what a person sees (the HTML report, the PR
comment as GitHub renders it): a screenshot with the URLs the page itself asked the network for,
the DOM after load, and a check that a PNG is not blank. Debian's chromium, prepared by
.ci/prepare-tools.sh in CI (`support.tools.chromium`); a test installs nothing."""

from __future__ import annotations

import json
import struct
import subprocess
import zlib
from pathlib import Path

_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--host-resolver-rules=MAP * ~NOTFOUND")


def _run(chromium: str, args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([chromium, *_FLAGS, f"--user-data-dir={tmp / 'profile'}", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def screenshot(chromium: str, page: Path, tmp: Path, size: tuple[int, int] = (1200, 900),
               shot: Path | None = None) -> tuple[bytes, list[str]]:
    """Screenshot `page` headless (to `shot`, else a file in `tmp`); also the URLs the page
    itself asked the network for."""
    shot = shot or tmp / "shot.png"
    netlog = tmp / "net.json"
    done = _run(chromium, [f"--screenshot={shot}", f"--window-size={size[0]},{size[1]}",
                           f"--log-net-log={netlog}", page.as_uri()], tmp)
    assert shot.is_file(), f"no screenshot; chromium said:\n{done.stderr[-2000:]}"
    log = json.loads(netlog.read_text(encoding="utf-8"))
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = [
        e["params"]["url"] for e in log["events"]
        if names.get(e["type"]) == "URL_REQUEST_START_JOB" and "url" in e.get("params", {})
        # The browser's own housekeeping (update checks, accounts) has no page origin.
        and e["params"].get("initiator") != "not an origin"
        and not e["params"]["url"].startswith("file:")
    ]
    return shot.read_bytes(), urls


def dump_dom(chromium: str, page: Path, tmp: Path) -> str:
    """The page's DOM after load, serialized by Chromium (`--dump-dom`)."""
    done = _run(chromium, ["--dump-dom", page.as_uri()], tmp)
    assert done.returncode == 0 and "<html" in done.stdout, done.stderr[-2000:]
    return done.stdout


def distinct_rows(png: bytes) -> tuple[int, int, int]:
    """(width, height, distinct filtered scanlines) of an 8-bit RGB(A) PNG, stdlib only.

    A single-colour image has at most a handful of distinct filtered scanlines (one per PNG
    filter type), so many distinct rows means the page drew something.
    """
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    stride = 1 + width * (3 if colour == 2 else 4)
    raw = zlib.decompress(idat)
    assert len(raw) == stride * height
    rows = {raw[i:i + stride] for i in range(0, len(raw), stride)}
    return width, height, len(rows)
