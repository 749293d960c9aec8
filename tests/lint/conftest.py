"""The SARIF Multitool fixture, shared with the reporter tests."""

from reporters.conftest import npm_modules, sarif_multitool  # noqa: F401
