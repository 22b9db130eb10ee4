"""The audit trail keeps the words: what was asked, and what the router went by.

The intent and done records of a rule- or model-routed write had no command text: afterwards
nobody could tell what was said. Here a real hermesd takes generated commands (plain ones, ones
wrapped in control characters, bidi overrides, backslashes, Chinese, and ones past the length
limit): every record of each carries the text as asked, printable-escaped and cut at the
request limit, and the candidates the router weighed or why it placed nothing; and the records
of a write stay small.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermesd.audit_records import TEXT_LIMIT, cut, printable
from hermesd.engine import MAX_TEXT
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device

CORES = ["set pump speed to 900", "set the pump speed to 1200 rpm", "what is the tank level",
         "把泵速设为800", "turn the pump up to 1000", "hello", "read tank level"]
NOISE = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30) | \
    st.sampled_from(["\x1b[31m", "\u202e", "\\", "\t\r", "\u200d", "\x00", "😀"])


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    runner = DaemonRunner(tmp_path_factory.mktemp("words"))
    config = base_config({"dev": fake_device({
        "tank_level": {"name": "Tank level", "type": "float", "unit": "%",
                       "params": {"value": 73.4}},
        "pump_speed": {"name": "Pump speed", "type": "int", "unit": "rpm", "writable": True,
                       "min": 0, "max": 1500, "params": {"value": 0}}})})
    config["access"]["roles"]["operator"]["writes_per_minute"] = 100000
    try:
        yield runner.start(config)
    finally:
        runner.cleanup()


def _trail(state: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for p in sorted(state.glob("audit-trail-*.jsonl"))
            for line in p.read_text().splitlines() if line.strip()]


def _check_words(record: dict[str, Any], sent: str) -> None:
    expected, was_cut = printable(sent, MAX_TEXT)
    if record.get("truncated") and record["text"] != expected:  # a record that may be counted
        expected = cut(expected, TEXT_LIMIT)  # away keeps 256 characters of a text field
    assert record["text"] == expected, record
    assert record.get("text_cut", False) == was_cut


@settings(max_examples=max(20, settings().max_examples // 3))  # each waits for a batch
@given(before=NOISE, core=st.sampled_from(CORES), after=NOISE, dry_run=st.booleans())
def test_every_record_of_an_ask_carries_its_words(daemon: RunningDaemon, before: str, core: str,
                                                  after: str, dry_run: bool) -> None:
    text = f"{before} {core} {after}".strip() or core
    answer = daemon.request({"op": "ask", "text": text, "role": "operator", "dry_run": dry_run})
    records = [r for r in daemon.audit_records() if r.get("trace_id") == answer["trace_id"]]
    assert records and records[-1]["phase"] == "done"
    for record in records:
        _check_words(record, text)
        assert record.get("candidates") or record.get("why"), record  # routed: it says how
        assert all(isinstance(c, str) and len(c) <= 64 for c in record.get("candidates", []))
    intents = [r for r in records if r["phase"] == "intent"]
    if intents:  # a write about to happen: its intent and outcome in the trail, with the words
        trail = [r for r in _trail(daemon.state_dir) if r.get("trace_id") == answer["trace_id"]]
        assert [r["phase"] for r in trail] == ["intent", "done"]
        for record in trail:
            _check_words(record, text)


@settings(max_examples=10)
@given(extra=st.integers(1, 3000))
def test_a_command_past_the_limit_is_recorded_cut_at_the_limit(daemon: RunningDaemon,
                                                               extra: int) -> None:
    text = "set pump speed to 900 " + "x" * (MAX_TEXT + extra)
    answer = daemon.request({"op": "ask", "text": text, "role": "operator"})
    assert answer["error"]["code"] == "BAD_REQUEST"  # refused, and what was said is kept
    [record] = [r for r in daemon.audit_records() if r.get("trace_id") == answer["trace_id"]]
    assert record["text"].startswith("set pump speed to 900 xxx") and record["text_cut"]


def test_the_records_of_a_write_stay_small(daemon: RunningDaemon) -> None:
    """About 0.6 KB a write before the words; a spoken-length command adds its own length."""
    text = "set the pump speed to 1100 rpm please"
    answer = daemon.request({"op": "ask", "text": text, "role": "operator"})
    assert answer["status"] == "ok", answer
    daemon.audit_records()  # both files are written in one batch: once one is, so is the other
    lines = [line for p in sorted(daemon.state_dir.glob("audit-trail-*.jsonl"))
             for line in p.read_text().splitlines() if answer["trace_id"] in line]
    assert len(lines) == 2
    assert sum(len(line.encode()) + 1 for line in lines) < 1024 + 2 * len(text), lines
