"""Escaping of untrusted server and model text for the human formats.

Server answers, stderr tails and judge reasons are data written by someone else. Each human
format neutralises them for its own medium:

- terminal (`terminal`): control characters and bidi overrides become visible escapes, so text
  cannot move the cursor, recolour the screen or reorder what a reader sees;
- GitHub markdown (`md_inline`, `md_block`, `md_code`): every character markdown, HTML or a
  GitHub table would act on becomes a numeric character reference, `@` mentions get a zero-width
  joiner (`#12` too), `www.` loses its autolink, and `:` is a reference so neither a URL scheme
  nor a workflow command (`::error::`) survives as such;
- HTML is left to Jinja's autoescape; `strip_controls` removes what a browser would choke on
  and masks key-shaped strings.

Entities rather than backslash escapes because they work in both places we put text: markdown
inline content (table cells) and raw HTML blocks (`<summary>`, `<pre>`), where a backslash would
show literally.
"""

from __future__ import annotations

import re

from mcptest.report.redact import mask_key_shapes

_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f" + _BIDI + "]")
_CONTROL_KEEP_TAB = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f" + _BIDI + "]")
_MENTION = re.compile(r"@(?=[\w\-])")
_ISSUE_REF = re.compile(r"&#35;(?=\d)")
_WWW = re.compile(r"(?i)\b(www)\.")
_ZWJ = "\u200d"

# Characters markdown, GitHub tables or HTML would interpret, mapped to numeric references.
_MD_ENTITIES = {
    ord(ch): f"&#{ord(ch)};"
    for ch in "&<>|`*_[]\\~#!:$"
}


def redact_keys(text: str) -> str:
    """Second line of defence: mask anything shaped like a common API key.

    Secrets are redacted upstream before a reporter sees the report; this catches what slipped
    through (a key echoed by a server under a name nobody declared). Same patterns, same
    placeholder as the first line: `mcptest.report.redact`.
    """
    return mask_key_shapes(text)


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\u{code:04x}" if code > 0xFF else f"\\x{code:02x}"


def shorten(text: str, limit: int | None) -> str:
    """Cut `text` to `limit` code points, the last one an ellipsis."""
    if limit is None or len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + "…"


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def strip_controls(text: str) -> str:
    """Remove control characters (tab and newline kept) and bidi overrides; mask keys."""
    return redact_keys(_CONTROL_KEEP_TAB.sub("", normalise_newlines(text)))


def terminal(text: str, *, keep_newlines: bool = False) -> str:
    """Text safe to print on a terminal: escapes, cursor moves and bidi tricks made visible."""
    text = redact_keys(normalise_newlines(text)).replace("\t", "    ")
    if keep_newlines:
        return "\n".join(_CONTROL.sub(_visible, line) for line in text.split("\n"))
    return _CONTROL.sub(_visible, text.replace("\n", "⏎ "))


def _md_chars(text: str) -> str:
    text = strip_controls(text).replace("\t", "    ")
    text = text.translate(_MD_ENTITIES)
    text = _ISSUE_REF.sub("&#35;" + _ZWJ, text)
    text = _WWW.sub(r"\1&#46;", text)  # GFM autolinks `www.` even without a scheme
    return _MENTION.sub("@" + _ZWJ, text)


def md_inline(value: object, limit: int | None = None, newline: str = "<br>") -> str:
    """One line of inert markdown: safe in a table cell, a paragraph or an HTML tag body.

    Newlines become `newline` (`<br>`, or a space for titles) so a value never ends a table
    row or starts a line of its own.
    """
    text = shorten(value if isinstance(value, str) else str(value), limit)
    return newline.join(_md_chars(line) for line in normalise_newlines(text).split("\n"))


def md_title(value: object, limit: int | None = None) -> str:
    """`md_inline` for a `<summary>` or heading: newlines fold into spaces."""
    return md_inline(value, limit, newline=" ")


def md_block(value: object, limit: int | None = None) -> str:
    """Inert text for the inside of a `<pre>` block: newlines kept, nothing else active.

    Leading spaces are kept too; a line can never start with a backtick, `~`, `<` or `:`
    because those characters are always written as references.
    """
    text = shorten(value if isinstance(value, str) else str(value), limit)
    return _md_chars(text)


def md_code(value: object, limit: int | None = None) -> str:
    """An inline code element for untrusted text that must keep backticks and pipes.

    Rendered as `<code>` with references inside rather than a backtick span: a backtick span
    cannot escape `|` portably inside tables, nor `<` for readers of the raw markdown.
    """
    return f"<code>{md_inline(value, limit)}</code>"


def md_comment_value(text: str) -> str:
    """A value that may sit inside an HTML comment without closing it or spanning lines."""
    out = strip_controls(text)
    for raw, enc in (("%", "%25"), ("<", "%3C"), (">", "%3E"), ("\n", "%0A"), (",", "%2C")):
        out = out.replace(raw, enc)
    return out
