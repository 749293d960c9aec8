"""Rubric evals (SPEC §6): resolve a rubric, judge a candidate with it, explain what it costs."""
