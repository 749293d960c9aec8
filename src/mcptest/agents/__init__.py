"""Live agent tests (docs/agents.md): a model drives the suite's MCP servers through tool calls."""
