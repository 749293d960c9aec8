"""The judged tier of a run: which grader grades which judged matcher kind (`graders`), how many
model calls a plan may make (`projection`), and the `Judging` object the runner grades through.

It sits above `grade` (deterministic grading, rows, jury analytics) and `evals` (rubric evals,
custom judges), and below `run`, which only sees the `LlmGrading` protocol.
"""
