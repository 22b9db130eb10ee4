"""An `exec` device may not take the name of a built-in tool (its tool process is named by it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermesd.config.loader import validate
from hermesd.core.errors import ConfigError


@pytest.mark.parametrize("name", ["mqtt", "modbus", "serial"])
def test_an_exec_device_named_like_a_builtin_tool_is_refused(name: str, tmp_path: Path) -> None:
    data = {"node": {"id": "n"}, "mqtt": {"command_role": "viewer"},
            "devices": {name: {"driver": "exec", "command": ["true"],
                               "points": {"p": {"type": "float"}}}}}
    with pytest.raises(ConfigError) as caught:
        validate(data, tmp_path / "hermesd.yaml")
    assert (f"devices.{name}", f"an exec device may not be named {name!r}, the name of the "
            f"built-in {name} tool") in caught.value.problems


def test_other_exec_names_are_fine(tmp_path: Path) -> None:
    data = {"node": {"id": "n"}, "devices": {"oven": {"driver": "exec", "command": ["true"],
                                                      "points": {"p": {"type": "float"}}}}}
    assert "oven" in validate(data, tmp_path / "hermesd.yaml").devices


@pytest.mark.parametrize(("name", "worker"), [("llm", "hermesd's LLM worker"),
                                              ("whisper", "the voice tool"),
                                              ("control", "hermesd's control socket "
                                                          "(control.sock)")])
@pytest.mark.parametrize("voice", [True, False])
def test_an_exec_device_may_not_take_the_name_of_hermesds_own_workers(
        name: str, worker: str, voice: bool, tmp_path: Path) -> None:
    """`call` refuses llm and whisper for every role: an exec device so named would be replaced
    by the worker, or be a device nobody may call, whether or not voice or the LLM is on."""
    data = {"node": {"id": "n"}, "voice": {"enabled": voice, "input": "none"},
            "devices": {name: {"driver": "exec", "command": ["true"],
                               "points": {"p": {"type": "float"}}}}}
    with pytest.raises(ConfigError) as caught:
        validate(data, tmp_path / "hermesd.yaml")
    assert (f"devices.{name}", f"the name {name} is taken by {worker}; rename this device") in \
        caught.value.problems


def test_an_exec_device_whose_socket_path_is_too_long_is_refused(tmp_path: Path) -> None:
    """Its tool listens on <runtime_dir>/<id>.sock: past 107 bytes it never started, and was
    restarted every 30 s for good (review atk25s)."""
    name = "d" * 100
    data = {"node": {"id": "n"}, "paths": {"runtime_dir": "/run/hermesd"},
            "devices": {name: {"driver": "exec", "command": ["true"],
                               "points": {"p": {"type": "float"}}},
                        "oven": {"driver": "exec", "command": ["true"],
                                 "points": {"q": {"type": "float"}}}}}
    with pytest.raises(ConfigError) as caught:
        validate(data, tmp_path / "hermesd.yaml")
    assert caught.value.problems == [(
        f"devices.{name}", f"the tool's socket /run/hermesd/{name}.sock is 118 bytes, more than "
        "a Unix socket path takes (107): give the device a shorter id")]
