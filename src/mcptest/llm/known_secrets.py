"""The secret values one run knows about, for redaction before anything leaves the process.

docs/judges.md ("What the judge provider sees"): the same values reports redact — the judge
keys of the environment, the password in a URL's userinfo (a judge base URL's), bearer tokens,
`{env: …}` header values and the longer `{env: …}` values of stdio servers and `start:`
processes — collected from the suites and the environment ahead of the run, so the judge cache
and (with `--redact-candidates`) the judge's prompt never carry them, and the run's console
lines and reports redact them even for a server that never started.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.report.redact import secret_values, url_secret

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from mcptest.suite.models import Suite

STDIO_SECRET_MIN_LEN = 8
"""As in `mcptest.run.connect`: shorter stdio values ("1", "UTC") would only shred text."""


def known_secrets(suites: Iterable[Suite], env: Mapping[str, str]) -> tuple[str, ...]:
    """Every secret value the run will use, longest first (so a prefix never masks a longer one)."""
    found = secret_values(env)
    for suite in suites:
        if suite.judge is not None and suite.judge.base_url and (
                password := url_secret(suite.judge.base_url)) is not None:
            found.add(password)
        if not suite.servers:
            continue
        # the servers' models, loaded only by a run whose suites have servers
        from mcptest.suite.models import EnvRef, RemoteServer, StdioServer

        for server in suite.servers.values():
            if isinstance(server, RemoteServer):
                if server.auth is not None and env.get(server.auth.bearer_token_env):
                    found.add(env[server.auth.bearer_token_env])
                found.update(env[v.env] for v in server.headers.values()
                             if isinstance(v, EnvRef) and env.get(v.env))
            process_env = (server.env if isinstance(server, StdioServer)
                           else server.start.env if server.start is not None else {})
            found.update(env[v.env] for v in process_env.values()
                         if isinstance(v, EnvRef)
                         and len(env.get(v.env, "")) >= STDIO_SECRET_MIN_LEN)
    return tuple(sorted(found, key=len, reverse=True))
