"""litellm's price table read as data: the same answers as parsing it, parsed only when a
looked-up name occurs in its bytes (docs/judges.md, "Speed")."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from mcptest.llm.budget import lookup_price
from mcptest.llm.price_table import TABLE_FILE, PriceTable, price_table

TEXT = json.dumps({
    "sample_spec": {"input_cost_per_token": 0.0, "litellm_provider": "openai"},
    "gpt-4o-mini": {"input_cost_per_token": 1.5e-07, "output_cost_per_token": 6e-07},
    "note": "not an entry",
}, indent=4).encode()


def test_an_absent_name_answers_without_parsing() -> None:
    table = PriceTable(TEXT)
    assert table.get("gw-judge") is None
    assert "judge-a" not in table
    assert lookup_price("gateway/gw-judge", {}, table) is None
    assert not table.parsed


def test_a_present_name_parses_and_answers_like_the_json() -> None:
    table = PriceTable(TEXT)
    assert table["gpt-4o-mini"] == json.loads(TEXT)["gpt-4o-mini"]
    assert table.parsed
    assert "note" not in table  # entries only, as before
    assert sorted(table) == ["gpt-4o-mini", "sample_spec"]


def test_a_name_that_is_only_a_value_is_still_absent() -> None:
    table = PriceTable(TEXT)
    assert table.get("openai") is None  # occurs as a value: parsed, then not found


def test_a_name_written_with_escaped_slashes_is_found() -> None:
    table = PriceTable(b'{"openai\\/gpt-x": {"input_cost_per_token": 1, "output_cost_per_token": 2}}')
    assert table.get("openai/gpt-y") is None and not table.parsed  # absent in both spellings
    assert table.get("openai/gpt-x") == {"input_cost_per_token": 1, "output_cost_per_token": 2}


def test_the_bundled_table_agrees_with_its_json() -> None:
    spec = importlib.util.find_spec("litellm")
    assert spec is not None and spec.submodule_search_locations
    text = (Path(spec.submodule_search_locations[0]) / TABLE_FILE).read_bytes()
    whole = {k: v for k, v in json.loads(text).items() if isinstance(v, dict)}
    names = ["gpt-4o-mini", "claude-3-5-haiku-20241022", "gemini/gemini-2.5-flash",
             "judge-a", "gw-judge", "openai", "gpt-4o-mini-but-not", "gpt-4o"]
    assert whole["gpt-4o-mini"]["input_cost_per_token"] > 0  # the names cover both answers
    for name in names:
        assert PriceTable(text).get(name) == whole.get(name), name
    assert dict(price_table()) == whole
