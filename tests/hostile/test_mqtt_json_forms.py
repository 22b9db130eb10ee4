"""JSON is never taken for words: a request meant as JSON is read as JSON, or refused.

A JSON request dressed up (a byte-order mark, two of them, a zero-width space or a bidi
control before it, non-JSON spaces, fullwidth braces, words around it) must never become
plain command text or a plain set value: that would drop its id and its `dry_run`, and a dry
run would act. Generated payloads, first straight into the mqtt tool's reader, then through a
real broker, the real mqtt tool and a real hermesd: every answer is a refusal (BAD_REQUEST) or
carries the request's id and, for a write, says `dry_run`; no device value changes and the
audit log holds no write intent. Plain words that ask for a dry run themselves, or carry a
piece of JSON, are refused the same way: hermesd's router would not see the dry run.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hermes_tools.mqtt.inbound import Incoming, ReplyRules, command_event, set_event
from hypothesis import given
from hypothesis import strategies as st

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.mosquitto import Mosquitto, MqttClient

B = "hermesd/test-node"
COMMAND, RESPONSE = f"{B}/command", f"{B}/response"
RULES = ReplyRules(default=RESPONSE, protected=("hermesd/#", "homeassistant/#"))
INITIAL = {"speed": 1200, "beacon": True, "label": "idle"}
BOM = "\ufeff"

# what may stand before or around a JSON text: invisible and formatting characters (BOM,
# zero-width, joiners, bidi controls, soft hyphen, tag, private use, unassigned) and spaces
# that are not JSON's
INVISIBLE = ["\ufeff", "\u200b", "\u200c", "\u200d", "\u2060", "\u200e", "\u200f", "\u202e",
             "\u202a", "\u2066", "\u00ad", "\u180e", "\u061c", "\U000e0001", "\ue000", "\u0378"]
SPACES = [" ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u2028", "\u2029", "\u0085", "\x0b",
          "\x0c", "\u1680", "\u2009", "\u205f"]
#: compatibility forms of JSON's structure (NFKC makes them { } [ ] " :)
LOOKALIKES = {"{": ["\uff5b", "\ufe5b"], "}": ["\uff5d", "\ufe5c"], '"': ["\uff02"],
              ":": ["\uff1a", "\ufe55"]}
COMMAND_WORDS = ["set speed to 700", "turn off the beacon", "switch the beacon off",
                 "set label to running", "read speed"]
SET_VALUES: dict[str, Any] = {"speed": [700, "700", 0], "beacon": [False, "OFF", 0],
                              "label": ["running", "{}", "ok"]}
IDS = st.one_of(st.integers(1, 10**6), st.text("abcdefgh0123456789-", min_size=1, max_size=12))


@st.composite
def disguised_json(draw: st.DrawFn, obj: dict[str, Any]) -> str:
    """`obj` as JSON text, dressed up in any way that might get it taken for words."""
    separators = draw(st.sampled_from([(",", ":"), (", ", ": "), (" ,", " : ")]))
    text = json.dumps(obj, ensure_ascii=draw(st.booleans()), separators=separators)
    if draw(st.booleans()):  # swap some structure for lookalikes
        for char, forms in LOOKALIKES.items():
            if draw(st.booleans()):
                text = text.replace(char, draw(st.sampled_from(forms)), 1)
    around = st.lists(st.sampled_from(INVISIBLE + SPACES + [BOM, BOM + BOM]), max_size=4)
    lead = draw(st.sampled_from(["", "", "please ", "turn on the beacon "]))
    return "".join(draw(around)) + lead + text + "".join(draw(around))


@st.composite
def command_payloads(draw: st.DrawFn) -> tuple[str, str | int]:
    rid = draw(IDS)
    obj = {"text": draw(st.sampled_from(COMMAND_WORDS)), "id": rid, "dry_run": True}
    keys = draw(st.permutations(list(obj)))
    return draw(disguised_json({k: obj[k] for k in keys})), rid


@st.composite
def set_payloads(draw: st.DrawFn) -> tuple[str, str, str | int]:
    point = draw(st.sampled_from(list(SET_VALUES)))
    rid = draw(IDS)
    obj = {"value": draw(st.sampled_from(SET_VALUES[point])), "id": rid, "dry_run": True}
    return point, draw(disguised_json(obj)), rid


#: plain words that carry a piece of JSON or ask for a dry run in words
FRAGMENTS = ['{"dry_run": true}', '"dry_run": true', "dry run", "dry-run", "DRY_RUN",
             "dryrun", "--dry-run", "(dry run)", "\uff44\uff52\uff59 run", '"id": "b1"',
             "[dry_run]", "{", "]"]


@st.composite
def words_with_fragments(draw: st.DrawFn) -> str:
    words = draw(st.sampled_from(COMMAND_WORDS)).split()
    at = draw(st.integers(0, len(words)))
    words.insert(at, draw(st.sampled_from(FRAGMENTS)))
    return " ".join(words)


def _visible(text: str) -> bool:
    return not any(unicodedata.category(ch) in ("Cf", "Co", "Cn") for ch in text)


# -- the reader, alone ------------------------------------------------------------------------


@given(case=command_payloads())
def test_a_command_meant_as_json_keeps_its_id_and_dry_run_or_is_refused(
        case: tuple[str, str | int]) -> None:
    payload, rid = case
    event = command_event(Incoming(COMMAND, payload.encode()), RULES)
    if event["error"] is None:
        assert (event["dry_run"], event["id"]) == (True, rid), (payload, event)
        assert event["text"] in COMMAND_WORDS
    else:
        assert event["error"]["code"] == "BAD_REQUEST" and event["text"] is None


@given(case=set_payloads())
def test_a_write_meant_as_json_keeps_its_id_and_dry_run_or_is_refused(
        case: tuple[str, str, str | int]) -> None:
    point, payload, rid = case
    event = set_event(Incoming(f"{B}/{point}/set", payload.encode()), point, RULES)
    if event["error"] is None:
        assert (event["dry_run"], event["id"]) == (True, rid), (payload, event)
    else:
        assert event["error"]["code"] == "BAD_REQUEST" and event["value"] is None


@given(text=words_with_fragments())
def test_words_that_carry_json_or_ask_for_a_dry_run_are_refused(text: str) -> None:
    event = command_event(Incoming(COMMAND, text.encode()), RULES)
    assert event["error"] is not None and event["error"]["code"] == "BAD_REQUEST", text
    assert event["text"] is None


PIECES = st.sampled_from([*"abc xyz09.,-'?!°%/:\"_{[", "温度", "泵", "dry", "run", "read speed",
                          "\uff5b", *INVISIBLE[:4], *SPACES[:6]])


@given(text=st.lists(PIECES, max_size=12).map("".join))
def test_plain_words_taken_are_plain(text: str) -> None:
    """Whatever plain text is taken holds no JSON structure, nothing invisible and no ask for
    a dry run: what the router sees is what a person reads."""
    event = command_event(Incoming(COMMAND, text.encode()), RULES)
    if event["error"] is None:
        taken = unicodedata.normalize("NFKC", event["text"])
        assert not set(taken) & set("{}[]") and _visible(event["text"]), text
        assert not re.search(r"\bdry run\b", " ".join(taken.casefold().replace("_", " ").split())), text
        assert event["dry_run"] is False and event["id"] is None
    else:  # refused, and said why: never taken as something else
        assert event["error"]["code"] == "BAD_REQUEST" and event["text"] is None, (text, event)


def test_one_byte_order_mark_is_dropped_and_json_whitespace_allowed() -> None:
    body = json.dumps({"text": "set speed to 700", "id": "b1", "dry_run": True})
    for payload in (BOM + body, BOM + " \r\n\t" + body, " \n" + body):
        event = command_event(Incoming(COMMAND, payload.encode()), RULES)
        assert (event["text"], event["id"], event["dry_run"], event["error"]) == \
            ("set speed to 700", "b1", True, None)
    plain = command_event(Incoming(COMMAND, (BOM + "read speed").encode()), RULES)
    assert (plain["text"], plain["error"]) == ("read speed", None)
    twice = command_event(Incoming(COMMAND, (BOM + BOM + body).encode()), RULES)
    assert twice["error"]["code"] == "BAD_REQUEST" and twice["id"] == "b1"  # still matched


def test_words_may_mention_a_dry_run_in_json_that_states_one() -> None:
    for flag in (True, False):
        body = json.dumps({"text": "is the dry run protection of pump 1 on", "dry_run": flag})
        event = command_event(Incoming(COMMAND, body.encode()), RULES)
        assert event["error"] is None and event["dry_run"] is flag
    assert command_event(Incoming(COMMAND, b"is pump 1 dry running"), RULES)["error"] is None


# -- end to end: a real broker, mqtt tool and hermesd -------------------------------------------


def _config(port: int) -> dict[str, Any]:
    config = base_config({"rig": fake_device({
        "speed": {"name": "Speed", "type": "int", "writable": True, "min": 0, "max": 3000,
                  "params": {"value": INITIAL["speed"]}},
        "beacon": {"name": "Beacon", "type": "bool", "writable": True,
                   "params": {"value": INITIAL["beacon"]}},
        "label": {"name": "Label", "type": "string", "writable": True,
                  "params": {"value": INITIAL["label"]}},
    })}, mqtt={"host": "127.0.0.1", "port": port, "command_role": "panel"})
    config["access"]["roles"]["panel"] = {"read": True, "write": sorted(INITIAL),
                                          "writes_per_minute": 100000}
    return config


@dataclass
class Rig:
    d: RunningDaemon
    client: MqttClient
    serial: Iterator[int]


@pytest.fixture
def rig(daemon_runner: DaemonRunner, tmp_path: Path) -> Iterator[Rig]:
    with Mosquitto(tmp_path / "broker", extra="set_tcp_nodelay true\n") as broker:
        d = daemon_runner.start(_config(broker.port))
        d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")
        with MqttClient(broker.port, client_id="requester", subscribe=(RESPONSE,),
                        no_delay=True) as client:
            yield Rig(d, client, itertools.count())


def _values(d: RunningDaemon) -> dict[str, Any]:
    return {p: d.request({"op": "read", "point": p})["result"]["value"] for p in INITIAL}


REQUESTS = st.one_of(
    command_payloads().map(lambda c: (COMMAND, c[0], c[1])),
    set_payloads().map(lambda c: (f"{B}/{c[0]}/set", c[1], c[2])),
    words_with_fragments().map(lambda text: (COMMAND, text, None)))


@given(batch=st.lists(REQUESTS, min_size=1, max_size=6))
def test_a_dry_run_in_disguise_never_touches_a_device(
        rig: Rig, batch: list[tuple[str, str, str | int | None]]) -> None:
    sent = {}
    for topic, payload, rid in batch:
        correlation = f"j{next(rig.serial)}".encode()
        rig.client.publish(topic, payload.encode(), correlation=correlation)
        sent[correlation] = (topic, payload, rid)
    got = rig.client.wait_for(
        lambda ms: {m.correlation: m for m in ms if m.correlation in sent}
        if {m.correlation for m in ms} >= set(sent) else None, what="every answer")
    for correlation, (_topic, payload, rid) in sent.items():
        answer = json.loads(got[correlation].payload)
        if answer["status"] == "rejected" and answer["error"]["code"] == "BAD_REQUEST":
            assert answer["action"] is None, (payload, answer)
            continue
        # taken: so it was read as the JSON it is, with its id and its dry run
        assert rid is not None, ("words with a dry run or JSON in them were run", payload)
        assert answer["id"] == rid, (payload, answer)
        if (answer["action"] or {}).get("name") == "write":  # planned, or refused by policy
            assert answer["status"] in ("dry_run", "rejected", "forbidden"), (payload, answer)
    assert _values(rig.d) == INITIAL
    # a write intent is on disk (in the trail) before its device is touched and before its
    # answer is sent: so this is every intent there is
    trail = [json.loads(line) for path in rig.d.state_dir.glob("audit-trail-*.jsonl")
             for line in path.read_text().splitlines() if line]
    assert not [r for r in trail if r["phase"] == "intent"]
