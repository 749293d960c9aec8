"""Comparing a run with a baseline run: per-row changes, Fisher's test, gates (docs/baseline.md)."""
