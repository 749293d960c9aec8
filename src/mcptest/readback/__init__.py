"""The one reader of files mcptest reads back: reports, shards, baselines, baseline artifacts,
calibration labels and case tables (docs/reports.md, "Reading reports back").

They are as untrusted as a suite: a pull request from a fork can write them. Every one goes
through `files.read_regular` (a regular file only, opened without blocking, bounded in bytes)
and, when it is JSON, through `json_bounds.JsonScan` (nesting, number of values, NaN, Infinity
and numbers out of range, checked on the bytes before anything is built); what is refused is a
`ReadBackError` (exit 2) naming the file and the line or JSON path.
"""
