"""hermesctl under generated input: any command line, any line from the daemon, no traceback.

Command lines mix real words and flags with arbitrary bytes (as argv holds them: not UTF-8 is
kept as lone surrogates); each ends in a documented exit status (64 usage, 69 unreachable, 0
for --help). Any bytes the daemon might send are either read as an answer or refused as
unreadable (BadAnswer, exit 76); any answer that is read can be printed, as text or JSON.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from hermesd import ctl
from hermesd.answer import STATUS_EXIT
from hermesd.control import client
from hermesd.core import strict_json
from tests.hostile.strategies import bad_json_texts, strict_values

WORDS = ["status", "tools", "points", "read", "write", "ask", "call", "listen", "--json",
         "--role", "--dry-run", "--timeout", "--window", "--audio", "--socket", "-h", "dev.echo",
         "{}", "[1]", "nan", "1e400", "0", "-1", "tank_level", "operator"]
raw_args = st.binary(max_size=12).map(os.fsdecode)  # how Python hands non-UTF-8 argv over
argvs = st.lists(st.sampled_from(WORDS) | raw_args, max_size=6)


@given(argv=argvs, stdin=st.sampled_from(["", "status\n", None]))
@example(argv=["ask"], stdin=None)
@example(argv=["ask"], stdin="caf\udce9\n")
def test_any_command_line_ends_in_a_documented_status(argv: list[str], stdin: str | None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    nowhere = Path("/nonexistent-hermesd/control.sock")
    # `ask` alone reads commands from stdin: some lines, none, or no stdin at all (closed)
    monkeypatch.setattr(sys, "stdin", None if stdin is None else io.StringIO(stdin))
    try:
        code = ctl.run(["--socket", str(nowhere), *argv])
    except SystemExit as done:  # argparse: usage errors and --help
        code = done.code if isinstance(done.code, int) else 0
    assert code in (0, ctl.EX_USAGE, ctl.EX_UNAVAILABLE)


statuses = st.sampled_from([*STATUS_EXIT, "splendid", ""])
answers = st.fixed_dictionaries(
    {"status": statuses},
    optional={"route": strict_values, "action": strict_values, "result": strict_values,
              "error": strict_values, "reply": strict_values, "checks": strict_values,
              "transcript": strict_values, "trace_id": strict_values})
lines = st.one_of(answers.map(lambda a: json.dumps(a).encode()),
                  bad_json_texts().map(str.encode),
                  st.binary(max_size=200))


@given(line=lines, command=st.sampled_from(["status", "tools", "points", "read", "call", "ask"]),
       as_json=st.booleans())
def test_any_line_from_the_daemon_is_read_or_refused_and_what_is_read_prints(
        line: bytes, command: str, as_json: bool, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        answer: Any = client.read_answer(line.replace(b"\n", b" "))
    except client.BadAnswer:
        return
    assert answer["status"] in STATUS_EXIT
    capsys.readouterr()  # what earlier examples printed
    ctl.print_answer(command, answer, as_json)
    out = capsys.readouterr().out
    if as_json:
        assert strict_json.loads(out.strip()) == answer
