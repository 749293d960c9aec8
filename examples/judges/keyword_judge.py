"""A custom judge as an external command: one JSON document on stdin, one verdict on stdout.

    custom-judge: {command: ["${python}", "judges/keyword_judge.py"], rubric: "billing"}

Passes when every word of the rubric occurs in the candidate (case-insensitive).
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    doc = json.load(sys.stdin)
    text = str(doc.get("output") or "").lower()
    words = str(doc.get("criteria") or "").lower().split()
    missing = [w for w in words if w not in text]
    print(json.dumps({"verdict": "fail" if missing else "pass",
                      "score": 1.0 - len(missing) / max(len(words), 1),
                      "reasoning": f"missing: {', '.join(missing)}" if missing else "all present",
                      "cost_usd": 0.0}))


if __name__ == "__main__":
    main()
