"""Agent tests share the eval tests' in-process runner and judge-server fixture."""

from evals.conftest import js  # noqa: F401  (pytest fixture)
