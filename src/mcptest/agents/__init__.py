"""Live agent tests (SPEC §7): a model drives the suite's MCP servers through tool calls."""
