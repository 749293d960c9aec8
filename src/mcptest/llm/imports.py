"""Lazy, overlapped import of litellm: the only place in mcptest that imports it.

`import litellm` costs seconds and, unless `LITELLM_LOCAL_MODEL_COST_MAP=True` is set first, tries
to download a price table (and an Anthropic beta-header table on the first Anthropic call,
unless `LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS=True`). A run without judges must never pay for it,
and a run with judges should pay for it while servers start: `LitellmLoader.start()` begins the
import in a daemon thread and `get()` joins it.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import ModuleType


def _configure(litellm: Any) -> None:
    """Quiet litellm and switch off what we do ourselves (retries, cache, budget)."""
    litellm.suppress_debug_info = True
    litellm.drop_params = True
    litellm.telemetry = False
    litellm.num_retries = 0
    litellm.cache = None
    # Per-call logging callbacks cost time and would print prompts; we want none of them.
    litellm.success_callback = []
    litellm.failure_callback = []
    litellm.callbacks = []
    # With no callback registered nothing receives the logged messages, and litellm's "turn off
    # message logging" mode deep-copies every call's logging payload to redact it: CPU on every
    # call (docs/architecture.md, "Costs"), for nothing. Leave it at its default (off).
    litellm.turn_off_message_logging = False


def _import() -> ModuleType:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # Otherwise every Anthropic request first tries to fetch a beta-header table from GitHub.
    os.environ.setdefault("LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS", "True")
    os.environ.setdefault("LITELLM_LOG", "ERROR")
    first = "litellm" not in sys.modules
    import litellm

    _configure(litellm)
    # litellm leaves hundreds of thousands of long-lived objects behind; a full GC pass over them
    # would recur during a run (docs/architecture.md, "Costs"). Freezing moves them out of the
    # collector's view (they live for the whole process anyway). Only on the first import, and
    # only in a process whose collector is the console script's (it froze its start-up: a
    # nonzero freeze count): a freeze also takes whatever else is alive out of the collector's
    # view for good, so a `--watch` cycle, a pytest session or a library caller's run must not
    # freeze again and again what it made meanwhile (cyclic garbage among it is never freed).
    if first and gc.get_freeze_count():
        gc.collect()
        gc.freeze()
    return litellm


class LitellmLoader:
    """Imports litellm once per loader, in the background when asked to."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._module: ModuleType | None = None
        self._error: BaseException | None = None

    def _run(self) -> None:
        try:
            self._module = _import()
        except BaseException as e:  # kept and re-raised by get()
            self._error = e

    def start(self) -> None:
        """Begin the import in a daemon thread; calling it twice is harmless."""
        with self._lock:
            if self._thread is None and self._module is None:
                self._thread = threading.Thread(target=self._run, name="litellm-import",
                                                daemon=True)
                self._thread.start()

    def get(self) -> ModuleType:
        """The litellm module, importing it now if no background import was started."""
        self.start()
        thread = self._thread
        if thread is not None:
            thread.join()
        if self._error is not None:
            raise self._error
        assert self._module is not None
        return self._module

    @property
    def loaded(self) -> bool:
        return self._module is not None
