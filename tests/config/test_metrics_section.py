"""The metrics section: its socket is a name in the runtime dir, never a path. A path could
name any file, which the server would have replaced by its socket (the audit trail, by
"../state/…")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hermesd.config import load_config
from hermesd.core.errors import ConfigError


def _load(tmp_path: Path, metrics: Any) -> Any:
    path = tmp_path / "c.yaml"
    data: dict[str, Any] = {"node": {"id": "n1"}, "devices": {}, "metrics": metrics}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return load_config(path)


def test_a_socket_name_is_taken(tmp_path: Path) -> None:
    metrics = _load(tmp_path, {"socket": "metrics.sock"}).metrics
    assert metrics.socket == "metrics.sock" and metrics.enabled


@pytest.mark.parametrize("sock", ["../state/audit-trail-2026-12.jsonl", "/etc/passwd",
                                  "sub/metrics.sock", "..", ".hidden", ""])
def test_a_socket_path_is_refused(tmp_path: Path, sock: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, {"socket": sock})
    [line] = caught.value.lines()
    assert line.startswith("config error: metrics.socket: ") and repr(sock) in line


@pytest.mark.parametrize("sock", ["control.sock", "modbus.sock", "llm.sock", "voice"])
def test_the_name_of_one_of_hermesds_own_sockets_is_refused(tmp_path: Path, sock: str) -> None:
    """`control.sock` or `modbus.sock` passed, and the control server or the tool then took
    the name: metrics were silently gone (review atk21, METRICSOCK)."""
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, {"socket": sock})
    [line] = caught.value.lines()
    assert line == (f"config error: metrics.socket: {sock} is the name of one of hermesd's own "
                    "sockets (control, tools, workers, voice); name another file, e.g. "
                    "metrics.sock")
