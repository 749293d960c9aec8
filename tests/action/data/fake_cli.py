"""A stand-in for `mcptest run` with the CLI's argument shape, for the Action's flow tests.

It reads its scenario from the first "suite" file (JSON: `exit_code`, `stdout` text to print,
`report` to write as the json reporter's output), writes a placeholder for every other
`--reporter X --output P` pair, and records its argv and environment names in `fake_cli_argv.json`.
"""

import json
import os
import sys
from pathlib import Path

args = sys.argv[1:]
assert args[0] == "run", args
scenario = json.loads(Path(args[1]).read_text())
outputs: dict[str, str] = {}
i = 0
while i < len(args):
    if args[i] == "--reporter":
        name = args[i + 1]
        if i + 2 < len(args) and args[i + 2] == "--output":
            outputs[name] = args[i + 3]
    i += 1
Path("fake_cli_argv.json").write_text(json.dumps({"argv": args, "env": sorted(os.environ)}))
sys.stdout.write(scenario.get("stdout", ""))
sys.stderr.write(scenario.get("stderr", ""))
for name, path in outputs.items():
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if name == "json" and scenario.get("report") is not None:
        Path(path).write_text(json.dumps(scenario["report"]))
    elif name != "json":
        Path(path).write_text(f"placeholder {name}\n")
sys.exit(scenario["exit_code"])
