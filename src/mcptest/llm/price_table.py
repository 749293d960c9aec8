"""litellm's bundled price table, read as data without importing litellm.

`import litellm` costs seconds; the run header and the unknown-price check must not wait for it.
The table ships inside the litellm package as JSON, so we read that file directly. Parsing its
3 MB is a tenth of a cold start (docs/architecture.md, "Costs"), and a run through a
gateway asks only for names the table does not have: a name that does not occur in the file's
bytes as a JSON string is not a key of it, so such a lookup answers without parsing (or even
decoding) the file.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

TABLE_FILE = "model_prices_and_context_window_backup.json"


class PriceTable(Mapping[str, Any]):
    """Model name → litellm's entry; parsed on the first lookup of a name the text contains."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._parsed: dict[str, Any] | None = None
        self._absent: set[str] = set()

    @property
    def parsed(self) -> bool:
        """Whether the JSON was parsed (a run through a gateway never needs it)."""
        return self._parsed is not None

    def _table(self) -> dict[str, Any]:
        if self._parsed is None:
            data = json.loads(self._data) if self._data else {}
            self._parsed = {k: v for k, v in data.items() if isinstance(v, dict)}
        return self._parsed

    def __getitem__(self, name: str) -> Any:
        if self._parsed is None and name.isascii():
            if name in self._absent:
                raise KeyError(name)
            key = json.dumps(name).encode()
            # as Python's json writes it, or with `\\/` for `/` (JSON's one other spelling of
            # an ASCII name's characters that a writer may choose)
            if key not in self._data and (b"/" not in key
                                          or key.replace(b"/", b"\\/") not in self._data):
                self._absent.add(name)
                raise KeyError(name)
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


@lru_cache(maxsize=1)
def price_table() -> PriceTable:
    """Model name → litellm's entry (input_cost_per_token, output_cost_per_token, …)."""
    spec = importlib.util.find_spec("litellm")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return PriceTable(b"")
    for folder in spec.submodule_search_locations:
        path = Path(folder) / TABLE_FILE
        if path.is_file():
            return PriceTable(path.read_bytes())
    return PriceTable(b"")
