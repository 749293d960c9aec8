"""`cases:` on a test: a table of variable maps, inline or in a file
(docs/suites.md#tables-of-cases).

The loader reads the table and makes one row per case (`mcptest.suite.case_rows`); the model only
says what may be written.
"""

from typing import Any

from pydantic import Field

from mcptest.suite.models.base import Strict


class CaseFile(Strict):
    """A table kept next to the suite: CSV (a header row names the variables), JSON Lines or
    YAML (a list of mappings)."""

    file: str = Field(min_length=1, pattern=r"(?i)\.(csv|jsonl|ya?ml)$",
                      description="Path relative to the suite file: .csv, .jsonl, .yaml/.yml.")


Cases = list[dict[str, Any]] | CaseFile | None
CASES_DESCRIPTION = ("One row per case: `${var}` in the test is filled from each case; a `name` "
                     "names the row (else its number).")


def cases_field() -> Any:
    return Field(default=None, description=CASES_DESCRIPTION)
