"""litellm's bundled price table, read as data without importing litellm.

`import litellm` costs seconds; the run header and the unknown-price check must not wait for it.
The table ships inside the litellm package as JSON, so we read that file directly.
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

TABLE_FILE = "model_prices_and_context_window_backup.json"


@lru_cache(maxsize=1)
def price_table() -> dict[str, Any]:
    """Model name → litellm's entry (input_cost_per_token, output_cost_per_token, …)."""
    spec = importlib.util.find_spec("litellm")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return {}
    for folder in spec.submodule_search_locations:
        path = Path(folder) / TABLE_FILE
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            return {k: v for k, v in data.items() if isinstance(v, dict)}
    return {}
