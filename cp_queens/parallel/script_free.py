"""A fork server whose workers do not run the calling script again.

A ``forkserver`` (or ``spawn``) worker starts by importing the parent's ``__main__``
script as ``__mp_main__``, so that functions defined in the script can be unpickled.
The project's workers run the package's own functions and need nothing of the script,
and a script that calls ``cp_queens`` at its top level, with no
``if __name__ == "__main__":`` (every lesson script), would start workers from every
worker: Python breaks the pool with a screen of tracebacks.

What a worker imports is decided in one place, ``multiprocessing.spawn.
get_preparation_data`` (the same data a ``python -c`` parent sends, which names no
script). That function is wrapped, once, so that it leaves the script out while a
process of ``ScriptFreeProcess`` is being launched, in the thread launching it: nobody
else's processes (Dask's, the user's own) change. The classes live at module level
because multiprocessing pickles the process object for the server.
"""

from __future__ import annotations

import threading
from multiprocessing import context as contexts
from multiprocessing import spawn
from typing import Any

#: Set in the launching thread while one of our workers is being launched.
_launching = threading.local()


def _wrap_preparation() -> None:
    """Wrap ``spawn.get_preparation_data`` once (idempotent)."""
    if getattr(spawn.get_preparation_data, "_cp_queens", False):
        return
    original = spawn.get_preparation_data

    def get_preparation_data(name: str) -> dict[str, Any]:
        data: dict[str, Any] = original(name)
        if getattr(_launching, "script_free", False):
            data.pop("init_main_from_path", None)
            data.pop("init_main_from_name", None)
        return data

    get_preparation_data._cp_queens = True  # type: ignore[attr-defined]
    spawn.get_preparation_data = get_preparation_data


class ScriptFreeProcess(contexts.ForkServerProcess):
    """A fork-server process that does not import the calling script."""

    @staticmethod
    def _Popen(process_obj: Any) -> Any:
        from multiprocessing.popen_forkserver import Popen

        _wrap_preparation()
        _launching.script_free = True
        try:
            return Popen(process_obj)
        finally:
            _launching.script_free = False


class ScriptFreeContext(contexts.ForkServerContext):
    """multiprocessing's ``forkserver`` context, with ``ScriptFreeProcess`` workers."""

    Process = ScriptFreeProcess
