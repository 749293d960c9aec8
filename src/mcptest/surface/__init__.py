"""The server's surface: a stable snapshot of its tools, resources, templates and prompts, and a
classified diff between two snapshots (docs/lint.md#surface)."""
