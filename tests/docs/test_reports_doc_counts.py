"""docs/reports.md says how many gap categories a report may hold: the number of `GapCategory`
(it said "eleven" when there were thirteen, issue 37)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from mcptest.report.result_models import GapCategory

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen", "twenty"]
PAGE = Path(__file__).resolve().parents[2] / "docs" / "reports.md"


def test_the_gap_category_count_matches_the_enum() -> None:
    said = re.findall(r"gap categories are the (\w+) known ones",
                      PAGE.read_text(encoding="utf-8"))
    assert said, "docs/reports.md no longer says how many gap categories there are"
    assert said == [WORDS[len(get_args(GapCategory))]] * len(said)
