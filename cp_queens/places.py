"""Where a call may run, as a user spells it: a Dask scheduler's address or a local
cluster, checked before anything connects or starts.

Apart from ``cp_queens.parallel.dask`` (which connects and starts clusters) so that
``Budget`` can check a spelling at the bottom of the import graph: ``budget`` imports
this module, never the parallel package that itself imports ``budget``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cp_queens.errors import CpQueensError

#: Address schemes a client can reach a scheduler by here.
SCHEMES = ("tcp", "tls")
#: The port ``dask scheduler`` listens on unless told otherwise.
SCHEDULER_PORT = 8786

_HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")


@dataclass(frozen=True)
class Address:
    """A scheduler's address, checked: ``tcp://10.0.0.5:8786``."""

    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"


def parse_address(text: str) -> Address:
    """Check a scheduler address before any connection: one clear error for a bad one.

    ``HOST:PORT`` means ``tcp://HOST:PORT``; IPv6 hosts go in brackets.

    Examples:
        >>> str(parse_address("10.0.0.5:8786"))
        'tcp://10.0.0.5:8786'
        >>> str(parse_address("tls://[::1]:8786"))
        'tls://[::1]:8786'
        >>> parse_address("http://localhost:8787")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        cp_queens.errors.CpQueensError: 'http://localhost:8787' is a web address (the ...
    """
    form = f"tcp://HOST:{SCHEDULER_PORT}, or tls://HOST:{SCHEDULER_PORT}"
    scheme, separator, rest = text.partition("://")
    if not separator:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme in ("http", "https"):
        raise CpQueensError(
            f"{text!r} is a web address (the dashboard speaks HTTP); "
            f"a Dask scheduler's address is {form}"
        )
    if scheme not in SCHEMES:
        raise CpQueensError(
            f"a Dask scheduler address starts with tcp:// or tls://, got {text!r} "
            f"(the form is {form})"
        )
    if rest.startswith("["):
        host, bracket, port_text = rest[1:].partition("]")
        ok = bool(bracket) and port_text.startswith(":") and _is_ipv6(host)
        port_text = port_text[1:]
    else:
        host, colon, port_text = rest.rpartition(":")
        ok = bool(colon) and bool(_HOST.fullmatch(host)) and len(host) <= 253
    if not ok:
        raise CpQueensError(f"not a Dask scheduler address: {text!r} (the form is {form})")
    # isdigit() alone passes '²' (int() then fails) and other scripts' digits.
    if not (port_text.isascii() and port_text.isdigit()) or not 1 <= int(port_text) <= 65535:
        raise CpQueensError(
            f"the port of a Dask scheduler address is a number from 1 to 65535, got "
            f"{port_text!r} in {text!r}"
        )
    return Address(scheme, host, int(port_text))


def _is_ipv6(host: str) -> bool:
    import socket  # here: only a bracketed host needs it, and every command imports this module

    try:
        socket.inet_pton(socket.AF_INET6, host)
    except (OSError, ValueError):
        return False
    return True


def parse_cluster(spec: str) -> int | None:
    """``local`` -> ``None`` (Dask picks the number of workers), ``local:W`` -> ``W``."""
    name, _, workers = spec.partition(":")
    if name != "local":
        raise CpQueensError(f"a local cluster is written 'local' or 'local:W', got {spec!r}")
    if not workers:
        return None
    if not (workers.isascii() and workers.isdigit()) or int(workers) < 1:
        raise CpQueensError(
            f"a local cluster 'local:W' needs a number of workers >= 1, got {workers!r}"
        )
    return int(workers)
