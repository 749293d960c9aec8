"""`mcptest lint`: keyless rules over a server's listings and wire traffic, and the suite's
`surface:` check (docs/lint.md). Needs no judge key and never imports litellm."""
