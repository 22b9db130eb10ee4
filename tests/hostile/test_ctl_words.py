"""What hermesctl prints in words is safe on a terminal, whatever text a device (or anyone
who may write a text point) put in a value: no control or invisible formatting character
reaches stdout or stderr raw, so no escape sequence retitles or clears the terminal and no
"\\r\\n..." prints a line hermesd never said. `--json` keeps the text exactly."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermesd import ctl
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device

EVIL = ("\x1b]0;pwned\x07\x1b[2J\x1b[31mRED\u202eTXT\r\n"
        "FAKE: Boiler temperature is 20 °C\x9b\u200b\ufeff")


def _raw_controls(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.category(ch) in ("Cc", "Cf") and ch != "\n"]


@given(value=st.text(max_size=60), command=st.sampled_from(["read", "points", "history",
                                                             "alarms", "status", "call"]))
def test_any_text_in_an_answer_is_printed_without_raw_controls(
        capsys: pytest.CaptureFixture[str], value: str, command: str) -> None:
    answer = {"status": "ok", "reply": f"batch is {value}.", "result": {
        "value": value, "points": [{"id": "batch", "shown": value, "age_s": 0.0,
                                    "quality": "good", "name": value}],
        "alarms": [{"id": "a", "state": "active", "raised": None, "cleared": None,
                    "acked": None, "message": value}]}}
    ctl.print_answer(command, answer, as_json=False)
    out, err = capsys.readouterr()
    assert _raw_controls(out + err) == []
    # the lines are the ones hermesctl makes, however many line breaks the value held
    if command == "read":
        assert out.count("\n") == 1


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    runner = DaemonRunner(tmp_path_factory.mktemp("ctl-words"))
    try:
        yield runner.start(base_config({"line": fake_device({
            # the device holds it (a panel, a barcode reader, another master wrote it):
            # hermesd itself refuses to write such text
            "batch": {"name": "Batch code", "type": "string", "writable": True,
                      "params": {"value": EVIL}}})}, history={"flush": "1s"}))
    finally:
        runner.cleanup()


def test_a_text_value_with_escape_sequences_is_shown_escaped(daemon: RunningDaemon) -> None:
    written = daemon.request({"op": "write", "point": "batch", "value": EVIL,
                              "role": "operator"})
    assert (written["status"], written["error"]["code"]) == ("rejected", "OUT_OF_RANGE")
    assert "U+001B" in written["error"]["message"]
    for args in (("read", "batch"), ("points",), ("history", "batch", "--since", "10m",
                                                  "--stat", "last")):
        done = daemon.ctl(*args)
        assert done.returncode == 0, done.stderr
        assert _raw_controls(done.stdout) == [], (args, done.stdout)
        assert "\\x1b]0;pwned\\x07\\x1b[2J" in done.stdout and "\\u202e" in done.stdout
        assert not any(line.startswith("FAKE") for line in done.stdout.splitlines())
    done = daemon.ctl("--json", "read", "batch")  # the exact text, as JSON says it
    assert json.loads(done.stdout)["result"]["value"] == EVIL
