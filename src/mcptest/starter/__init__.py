"""`mcptest init`: a starter suite (and CI workflow) from what a live server lists
(docs/init.md)."""
