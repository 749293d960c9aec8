"""Rubric evals (docs/evals.md): resolve a rubric, judge a candidate with it, explain what it
costs."""
