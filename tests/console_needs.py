"""What a console block of the docs needs beyond a fresh folder, and how a test gives it.

A block that needs more than the page's folder (``tests/console.py``) names it on the
line before it, in a comment the site does not show: ``<!-- console: needs: dask -->``.
Each name here sets the block up as a reader would have it, and nothing in the commands
is changed but a placeholder the page tells the reader to replace (``SCHEDULER``):

* ``clone``: the folder is a copy of the checkout (its tracked files), as a reader's clone
  is; commands that rewrite the lessons or install the package do it to the copy.
* ``dask``: the block's own ``dask scheduler`` and ``dask worker`` commands run in the
  background (both on this machine: ``SCHEDULER`` is ``127.0.0.1``) until the block ends.
* ``tls``: a certificate authority and one certificate made with ``openssl``, a scheduler
  and a two-process worker started with them, and the client's configuration written as
  the page shows it (in ``DASK_CONFIG``).
* ``no-bwrap``: ``PATH`` holds the venv's scripts and nothing else, so no ``bwrap``.
* ``no-compiler``: a venv where cp-queens was installed with a C compiler that fails
  (``CC=false``), its scripts first on ``PATH``.
* ``jupyter``: ``jupyter lab`` runs in the background until it serves (then is stopped),
  with no browser, and allowed to run as root (CI runs as root).
* ``docker``: a ``docker run`` for a machine without Docker: the image's command runs
  under bubblewrap with the same mounts, no network and the same user (``IMAGE`` is this
  machine's own file system, where cp-queens is installed).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from tests.certificates import certificates

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


@dataclass
class Setting:
    """How a block's commands run: extra environment, ``PATH`` and background servers."""

    env: dict[str, str] = field(default_factory=dict)
    #: Folders put first on ``PATH``; ``path_only``: ``PATH`` is the venv's and these only.
    path: list[str] = field(default_factory=list)
    path_only: bool = False
    #: A placeholder of the page -> what it is here.
    replace: dict[str, str] = field(default_factory=dict)
    #: A command starting so keeps running in the background: ready once this many of its
    #: output lines contain the text.
    servers: dict[str, tuple[str, int]] = field(default_factory=dict)


def clone(cwd: Path, stack: ExitStack) -> Setting:
    """The checkout's tracked files, copied into ``cwd``."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, text=True, check=True
    )
    link = cwd / "examples"
    if link.is_symlink():
        link.unlink()
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (cwd / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, cwd / name)
    return Setting()


def dask(cwd: Path, stack: ExitStack) -> Setting:
    """The block's scheduler and worker, here."""
    return Setting(
        replace={"SCHEDULER": "127.0.0.1"},
        servers={"dask scheduler": ("Scheduler at:", 1), "dask worker": ("Registered to:", 2)},
    )


TLS_CONFIG = """\
distributed:
  comm:
    require-encryption: true
    tls:
      ca-file: {ca}
      client:
        cert: {cert}
        key: {key}
"""


def tls(cwd: Path, stack: ExitStack) -> Setting:
    """A cluster that speaks TLS only, its certificates, and the client's configuration."""
    keys = cwd / "tls"
    keys.mkdir()
    files = certificates(keys)
    config = cwd / "dask-config"
    config.mkdir()
    client = TLS_CONFIG.format(ca=files["ca.pem"], cert=files["node.pem"], key=files["node.key"])
    (config / "tls.yaml").write_text(client, encoding="utf-8")
    with_keys = ["--tls-ca-file", files["ca.pem"], "--tls-cert", files["node.pem"],
                 "--tls-key", files["node.key"]]  # fmt: skip
    dask_cli = [sys.executable, "-m", "dask"]
    scheduler = ["scheduler", "--protocol", "tls", "--host", "127.0.0.1", "--port", "8786"]
    start(stack, [*dask_cli, *scheduler, "--no-dashboard", *with_keys], keys, "Scheduler at:", 1)
    worker = [*dask_cli, "worker", "tls://127.0.0.1:8786", "--nworkers", "2", "--nthreads", "1",
              "--no-dashboard", *with_keys]  # fmt: skip
    start(stack, worker, keys, "Registered to:", 2)
    return Setting(env={"DASK_CONFIG": str(config)}, replace={"SCHEDULER": "127.0.0.1"})


def no_bwrap(cwd: Path, stack: ExitStack) -> Setting:
    """Only the venv's scripts on ``PATH``."""
    return Setting(path_only=True)


def no_compiler(cwd: Path, stack: ExitStack) -> Setting:
    """cp-queens installed where the C compiler fails, in a venv of its own that sees this
    venv's packages (its own cp_queens first)."""
    venv = cwd.parent / f"{cwd.name}-no-compiler"
    # no pip of its own: this venv's installs into it
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", where], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = [p for p in sys.path if p.endswith("site-packages")]
    Path(site, "these-packages.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    source = cwd.parent / f"{cwd.name}-source"
    source.mkdir()
    clone(source, stack)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "-q", "--no-deps", str(source)],
        check=True, capture_output=True, env={**os.environ, "CC": "false"},
    )  # fmt: skip
    return Setting(path=[str(venv / "bin")])


JUPYTER_CONFIG = "c.ServerApp.allow_root = True\nc.ServerApp.open_browser = False\n"


def jupyter(cwd: Path, stack: ExitStack) -> Setting:
    """``jupyter lab`` served, then stopped; no browser; root allowed."""
    config = cwd.parent / f"{cwd.name}-jupyter"
    config.mkdir()
    (config / "jupyter_server_config.py").write_text(JUPYTER_CONFIG, encoding="utf-8")
    return Setting(
        env={"JUPYTER_CONFIG_DIR": str(config), "BROWSER": "true"},
        servers={".venv/bin/jupyter lab": ("is running at", 1)},
    )


DOCKER = r"""#!/usr/bin/env bash
# docker run --rm --network none --user UID -v HOST:DIR[:ro]... IMAGE COMMAND...
# on a machine without Docker: COMMAND under bubblewrap, this machine's files as IMAGE
set -euo pipefail
[ "$1" = run ] || { echo "docker stand-in: only 'run'" >&2; exit 64; }
shift
room=(--dev /dev --proc /proc --tmpfs /tmp --die-with-parent)
for top in /*; do  # the image: this machine's folders, read-only, beside the mounts
    case "$top" in /dev|/proc|/tmp) ;; *) room+=(--ro-bind "$top" "$top") ;; esac
done
while [ $# -gt 0 ]; do
    case "$1" in
        --rm) shift ;;
        --network) [ "$2" = none ] && room+=(--unshare-net); shift 2 ;;
        --user) room+=(--unshare-user --uid "$2"); shift 2 ;;
        -v) IFS=: read -r host dir mode <<<"$2"; mkdir -p "$host"
            bind=--bind; [ "${mode:-}" = ro ] && bind=--ro-bind
            room+=("$bind" "$host" "$dir")
            shift 2 ;;
        *) break ;;
    esac
done
shift  # the image: this machine
exec bwrap "${room[@]}" --chdir / -- "$@"
"""


def docker(cwd: Path, stack: ExitStack) -> Setting:
    """A ``docker run`` of this machine's files under bubblewrap."""
    stand_in = cwd.parent / f"{cwd.name}-docker"
    stand_in.mkdir()
    (stand_in / "docker").write_text(DOCKER, encoding="utf-8")
    (stand_in / "docker").chmod(0o755)
    return Setting(path=[str(stand_in)])


@contextlib.contextmanager
def serve(
    command: list[str], cwd: Path, env: dict[str, str], ready: str, times: int
) -> Iterator[None]:
    """``command`` in the background while the block runs: ready once ``times`` of its
    output lines contain ``ready``; stopped (its whole process group) at the end."""
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True,
    )  # fmt: skip
    seen: list[str] = []
    found = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            seen.append(line)
            if sum(ready in s for s in seen) >= times:
                found.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not found.wait(120):
            raise AssertionError(f"{command} never said {ready!r}:\n" + "".join(seen[-20:]))
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(10)
        assert process.stdout is not None
        process.stdout.close()


def start(stack: ExitStack, command: list[str], cwd: Path, ready: str, times: int) -> None:
    """Run ``command`` in the background until ``stack`` closes; return once ``times`` of
    its output lines contain ``ready``."""
    stack.enter_context(serve(command, cwd, os.environ.copy(), ready, times))


NEEDS: dict[str, Callable[[Path, ExitStack], Setting]] = {
    "clone": clone,
    "dask": dask,
    "tls": tls,
    "no-bwrap": no_bwrap,
    "no-compiler": no_compiler,
    "jupyter": jupyter,
    "docker": docker,
}
