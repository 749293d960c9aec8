"""Which sentences of a description give the *model* orders, as opposed to constraining a value.

"Each path must be a string", "always UTC" and "must match exactly" constrain what goes into an
argument: they are documentation. "You must always call this tool first", "Before using
send_email, ALWAYS add …" and "Do not ask the user" steer the model's behaviour or its use of
other tools. The difference is grammatical, so the test is too (docs/lint.md#injection-imperative):

- a strong word (always, never, must, immediately, do not) stands at the start of a clause, or
  after an addressee (you, the assistant, the model, the agent), and governs a verb of acting;
- verbs that act on the model's conduct (call, invoke, tell, ask, ignore, …) count alone;
  verbs that may just fill a value (use, include, add, send, …) count only when the sentence also
  reaches beyond the value: a tool, the user, the conversation, the instructions, an e-mail
  address or a URL;
- "this tool must be called …" (a tool's use, in the passive) counts; "secretly" always does.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

STRONG = r"(?:always|never|must|immediately|do\s+not|don'?t)"
ADVERBS = r"(?:always|never|first|also|immediately|not|then|only)"
CONDUCT = (r"(?:call|invoke|run|execute|trigger|tell|inform|ask|mention|reveal|disclose|say|"
           r"respond|reply|answer|notify|ignore|disregard|override|obey|forget|trust|share|"
           r"forward|leak|upload|post|e-?mail|bcc|cc|skip)")
"""Verbs whose object is the model's own conduct: a strong word on them is an order."""
VALUE = (r"(?:use|include|add|append|prepend|attach|pass|send|insert|copy|read|fetch|set|put|"
         r"prefer|choose|select|check|verify|delete|remove|write|output|print|return|show|"
         r"report|follow|provide|specify|change|replace)")
"""Verbs that also describe how to fill an argument ("always include the country code")."""
CLAUSE_START = (r"(?:^|[.!?;:,(\n]|\b(?:and|then|so|but|or)\b|\s[-–—]\s)\s*"
                r"(?:(?:please|also|then|first|important|critical|note)\W+)*")
ADDRESSEE = r"\b(?:you|the\s+(?:assistant|model|agent|ai|llm))\s+(?:\w+\s+){0,2}?"

_ORDER = re.compile(
    rf"(?:{CLAUSE_START}|{ADDRESSEE}){STRONG}(?:\s+{ADVERBS})*\s+(?P<verb>{CONDUCT}|{VALUE})\b",
    re.IGNORECASE | re.MULTILINE,
)
_CONDUCT = re.compile(rf"^{CONDUCT}$", re.IGNORECASE)
_PASSIVE = re.compile(
    r"\b(?:this\s+tool|the\s+tool|it)\s+(?:must|should\s+always|always|must\s+always)\s+"
    r"(?:first\s+)?be\s+(?:called|invoked|used|run|executed|preferred)\b",
    re.IGNORECASE,
)
_SECRETLY = re.compile(r"\bsecretly\b", re.IGNORECASE)
_BEYOND = re.compile(
    r"\b(?:tools?|functions?|users?|human|conversation|chat|instructions?|system\s+prompt|"
    r"assistant|the\s+model|the\s+agent|your\s+(?:answer|response|reply|output|summary))\b"
    r"|[\w.+-]+@[\w-]+\.[\w.]+|https?://",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_TRIGGER = r"\b(?:before|after|when|whenever|while|if|each\s+time|every\s+time|once)\b"


def sentences(text: str) -> list[str]:
    """The sentences of `text`, split on end punctuation and line breaks."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _names_tool(sentence: str, tools: Iterable[str]) -> bool:
    return any(re.search(rf"(?<![\w.-]){re.escape(t)}(?![\w-])", sentence) for t in tools if t)


def order_in(sentence: str, tools: Iterable[str] = ()) -> str | None:
    """The part of `sentence` that orders the model about, or None for plain documentation.
    `tools` are tool names that, when named, carry a value verb beyond its argument."""
    for m in _ORDER.finditer(sentence):
        verb = m.group("verb")
        if _CONDUCT.match(verb) or _BEYOND.search(sentence) or _names_tool(sentence, tools):
            return m.group(0).strip(" ,;:(\n")
    for pattern in (_PASSIVE, _SECRETLY):
        found = pattern.search(sentence)
        if found:
            return found.group(0)
    return None


def orders(text: str, tools: Iterable[str] = ()) -> list[str]:
    """Each sentence of `text` that orders the model about (see `order_in`)."""
    names = list(tools)
    return [s for s in sentences(text) if order_in(s, names) is not None]


def shadows(text: str, siblings: Iterable[str]) -> list[tuple[str, str]]:
    """(tool, sentence) for each sentence that tells the model how to use *another* tool of the
    same server: it names the tool after a trigger ("before using send_email", "whenever
    `send_email` is called") and carries a strong word. Pointing at a sibling ("use
    read_text_file instead", "call list_directory first") is ordinary guidance."""
    found: list[tuple[str, str]] = []
    names = [t for t in siblings if t]
    for sentence in sentences(text):
        if not re.search(rf"\b{STRONG}\b", sentence, re.IGNORECASE):
            continue
        for tool in names:
            trigger = re.search(
                rf"{_TRIGGER}(?:\s+\w+){{0,4}}?\s+(?:the\s+)?[`'\"]?{re.escape(tool)}(?![\w-])",
                sentence, re.IGNORECASE)
            if trigger:
                found.append((tool, sentence))
                break
    return found
