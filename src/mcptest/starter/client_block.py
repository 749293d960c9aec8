"""The client side a starter suite declares: every capability a server may use, answered by
scripted TODO answers, so the tools a server shows only to a capable client (sampling,
elicitation, roots, tasks) are listed by `init` and get a starter test (docs/init.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.run.client_config import ClientConfig, merged
from mcptest.suite.models.client import CAPABILITIES, ServerClient

if TYPE_CHECKING:
    from pathlib import Path

SAMPLING_TODO = "TODO: the answer your users' model would give"


def starter_client() -> dict[str, Any]:
    """The `client:` block written on the server: what init declared while listing."""
    return {
        "capabilities": list(CAPABILITIES),
        "roots": [{"path": ".", "name": "TODO: the folders your server may see"}],
        # decline: the one answer that fits any form; write the content your users would give
        "elicitation": [{"action": "decline"}],
        "sampling": [{"text": SAMPLING_TODO}],
    }


def discovery_config(base_dir: Path) -> ClientConfig:
    """The client init lists the server as: the same block, so it sees what the suite will."""
    block = ServerClient.model_validate(starter_client())
    return ClientConfig(capabilities=frozenset(CAPABILITIES), answers=merged(block),
                        base_dir=base_dir)
