"""mcptest: a test runner for MCP servers."""

__version__ = "0.1.0"

__all__ = ["__version__"]
