"""Throw-away TLS certificates for the tests that start a Dask cluster speaking TLS."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def certificates(folder: Path) -> dict[str, str]:
    """A throw-away certificate authority and one certificate it signed, by openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make test certificates")
    quiet = {"check": True, "capture_output": True, "cwd": folder}
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=cp-queens test CA"], **quiet,
    )  # fmt: skip
    subprocess.run(
        ["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "node.key",
         "-out", "node.csr", "-subj", "/CN=node"], **quiet,
    )  # fmt: skip
    subprocess.run(
        ["openssl", "x509", "-req", "-in", "node.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
         "-CAcreateserial", "-days", "1", "-out", "node.pem"], **quiet,
    )  # fmt: skip
    return {name: str(folder / name) for name in ("ca.pem", "node.pem", "node.key")}
