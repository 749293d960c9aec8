"""Description injection heuristics, computed locally: nothing leaves the runner.

Five categories, named like the public scanners' so findings map across tools (docs/lint.md):
hidden instructions (Snyk E001, tool poisoning), references to other servers' tools (E002,
shadowing), orders about a sibling tool of the same server (same-server shadowing), orders aimed
at the model (W001/E003, lint/directives.py) and invisible Unicode. Patterns are deliberately
conservative: each match quotes the text that triggered it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from mcptest.lint.directives import orders, shadows

HIDDEN = [
    re.compile(p, re.IGNORECASE) for p in (
        r"<\s*(important|system|instructions?|secret|hidden|admin)\s*>",
        r"\bignore\s+(all\s+|any\s+)?(previous|prior|above|other)\s+(instructions|rules)",
        r"\b(do\s+not|don'?t|never)\s+(tell|inform|mention|reveal|show)\b[^.]{0,40}\b(user|human)",
        r"\bwithout\s+(telling|informing|asking)\s+the\s+(user|human)",
        r"\bbefore\s+(using|calling|answering|responding)\b[^.]{0,80}\b(read|call|send|include|"
        r"append|pass)\b",
        r"~/\.ssh|\bid_rsa\b|\b[A-Z][A-Z0-9]*_(TOKEN|SECRET|API_KEY)\b",
        r"\byou\s+(are|must)\s+now\b",
    )
]
SHADOW = [
    re.compile(p, re.IGNORECASE) for p in (
        r"\binstead\s+of\s+(using|calling)\s+(the\s+)?[`'\"]?[\w.-]+[`'\"]?\s+tool",
        r"\bwhen(ever)?\s+(the\s+)?(user|you|agent)\s+(uses?|calls?)\s+(the\s+)?[`'\"]?[\w.-]+"
        r"[`'\"]?\s+tool",
        r"\b(all|any|other)\s+(other\s+)?tools?\s+(must|should)\b",
    )
]
INVISIBLE = {0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064,
             0xFEFF, 0x00AD, 0x180E}
BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
TAGS = range(0xE0000, 0xE0080)


@dataclass(frozen=True)
class Hit:
    rule: str
    evidence: str


def _quote(text: str, match: re.Match[str], pad: int = 20) -> str:
    start, end = max(0, match.start() - pad), min(len(text), match.end() + pad)
    return " ".join(text[start:end].split())[:120]


def _short(text: str) -> str:
    return " ".join(text.split())[:120]


def _invisible(text: str) -> list[str]:
    found = []
    for ch in text:
        cp = ord(ch)
        if cp in INVISIBLE or cp in BIDI or cp in TAGS or (
            unicodedata.category(ch) == "Cf" and cp not in (0x0600, 0x0601)
        ):
            found.append(f"U+{cp:04X}")
    return sorted(set(found))


def _first(patterns: list[re.Pattern[str]], text: str) -> str | None:
    for pattern in patterns:
        m = pattern.search(text)
        if m:
            return _quote(text, m)
    return None


def scan(text: str, other_tools: set[str], siblings: frozenset[str] = frozenset()) -> list[Hit]:
    """The injection hits of one tool's texts; `other_tools` are other servers' tool names,
    `siblings` the other tools of the same server."""
    hits: list[Hit] = []
    hidden = _first(HIDDEN, text)
    if hidden:
        hits.append(Hit("injection-hidden-instructions", hidden))
    shadow = _first(SHADOW, text)
    if shadow is None:
        named = sorted(t for t in other_tools if len(t) >= 4 and re.search(
            rf"(?<![\w.-]){re.escape(t)}(?![\w-])", text))
        shadow = "names " + ", ".join(named[:5]) if named else None
    if shadow:
        hits.append(Hit("injection-shadowing", shadow))
    steered = shadows(text, siblings)
    if steered:
        tool, sentence = steered[0]
        hits.append(Hit("injection-shadowing-same-server", f"about `{tool}`: {_short(sentence)}"))
    if not hits:  # an error-level hit already says it; the warning would repeat it
        ordered = orders(text, {*siblings, *other_tools})
        if ordered:
            hits.append(Hit("injection-imperative", _short(ordered[0])))
    codes = _invisible(text)
    if codes:
        hits.append(Hit("injection-invisible-unicode", ", ".join(codes[:8])))
    return hits
