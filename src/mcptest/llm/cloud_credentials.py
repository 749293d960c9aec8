"""Whether a cloud route has credentials, read the way its SDK finds them, without a network
call (docs/judges.md, "Routes").

Azure OpenAI, Bedrock and Vertex AI take no single API key: litellm reads each one's own
variables and files. Without any of them a request can only fail, and a fork's pull request has
none, so such a model is deferred like a provider whose key is unset, naming what to set.
Only what is visible without asking a server counts: an EC2 instance role or GCE metadata
server with no variable or file set is not seen (set `AWS_PROFILE`/a web identity, or
GOOGLE_APPLICATION_CREDENTIALS).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping


def _set(env: Mapping[str, str], *names: str) -> bool:
    return any(env.get(n) for n in names)


def _file(env: Mapping[str, str], name: str, default: str) -> bool:
    path = env.get(name) or (str(Path(env.get("HOME", "~")).expanduser() / default)
                             if env.get("HOME") else "")
    return bool(path) and Path(path).is_file()


def _azure(env: Mapping[str, str]) -> str | None:
    key = _set(env, "AZURE_API_KEY", "AZURE_OPENAI_API_KEY", "AZURE_AD_TOKEN") or (
        _set(env, "AZURE_CLIENT_ID") and _set(env, "AZURE_TENANT_ID")
        and _set(env, "AZURE_CLIENT_SECRET", "AZURE_FEDERATED_TOKEN_FILE"))
    base = _set(env, "AZURE_API_BASE", "AZURE_OPENAI_ENDPOINT")
    missing = [n for n, ok in (("AZURE_API_KEY", key), ("AZURE_API_BASE", base)) if not ok]
    return " and ".join(missing) + " (and AZURE_API_VERSION)" if missing else None


def _aws(env: Mapping[str, str]) -> str | None:
    if (_set(env, "AWS_ACCESS_KEY_ID") and _set(env, "AWS_SECRET_ACCESS_KEY")) or _set(
            env, "AWS_PROFILE", "AWS_BEARER_TOKEN_BEDROCK", "AWS_WEB_IDENTITY_TOKEN_FILE",
            "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
            "AWS_ROLE_NAME") or _file(env, "AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials"):
        return None
    return "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, a web identity)"


def _google(env: Mapping[str, str]) -> str | None:
    if _set(env, "VERTEXAI_CREDENTIALS") or _file(
            env, "GOOGLE_APPLICATION_CREDENTIALS",
            ".config/gcloud/application_default_credentials.json"):
        return None
    return "GOOGLE_APPLICATION_CREDENTIALS (a service-account key file) or VERTEXAI_CREDENTIALS"


_CHECKS = {"azure": _azure, "bedrock": _aws, "vertex_ai": _google}


def missing_credentials(provider: str | None, env: Mapping[str, str]) -> str | None:
    """What to set for `provider`'s requests to be sent, or None when credentials are there
    (or the provider is not a cloud route this module knows)."""
    check = _CHECKS.get(provider or "")
    return check(env) if check is not None else None
