"""`mcptest view`: one self-contained, offline HTML page that draws a run's JSON report test by
test (the JSON-RPC timeline, agent turns, every ballot, cascade tiers, replay and baseline
diffs; docs/view.md).

The report travels inside the page as JSON in a `<script type="application/json">` element,
read with `textContent` and drawn with text nodes only: server and model text never becomes
markup. `<`, `>` and `&` are written as JSON escapes, so no text can close the element. The
page's own script is allowed by its hash; the Content-Security-Policy forbids every fetch.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from typing import TYPE_CHECKING, Any

from mcptest.reporters import DEFAULTS, RenderOptions
from mcptest.reporters.escape import strip_controls
from mcptest.reporters.templating import TEMPLATES

if TYPE_CHECKING:
    from mcptest.report.models import Report


@functools.cache
def _assets() -> tuple[str, str, str]:
    html, css, js = ((TEMPLATES / name).read_text(encoding="utf-8")
                     for name in ("view.html", "view.css", "view.js"))
    return html, css, js


def _clean(value: Any) -> Any:
    """Control characters and bidi overrides out, key-shaped strings masked, at any depth."""
    if isinstance(value, str):
        return strip_controls(value)
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def embedded_json(value: Any) -> str:
    """JSON that is safe inside a script element: no `<`, `>` or `&` left to end it."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The viewer page for `report`."""
    page, css, script = _assets()
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    csp = (f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
           "img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'")
    data = embedded_json(_clean(report.model_dump(mode="json")))
    # one pass, so nothing inserted is read again as a placeholder
    parts = {"__CSP__": csp, "__CSS__": css, "__DATA__": data, "__JS__": script}
    out: list[str] = []
    rest = page
    for key in ("__CSP__", "__CSS__", "__DATA__", "__JS__"):
        head, _, rest = rest.partition(key)
        out += [head, parts[key]]
    out.append(rest)
    return "".join(out)
