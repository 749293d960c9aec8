"""`python -m mcptest`."""

from mcptest.cli.main import main

raise SystemExit(main())
