"""The outbox keeps durable messages until acknowledged, bounded, across restarts."""

from __future__ import annotations

from pathlib import Path

from hermes_tools.mqtt.outbox import Message, Outbox


def _msg(n: int) -> Message:
    return Message(f"answers/{n}", f"payload {n}".encode(), correlation=bytes([n]),
                   content_type="application/json", expiry=600)


def test_kept_until_acknowledged(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.json", limit=10)
    box.add(_msg(1))
    box.add(_msg(2))
    (seq1, _), (seq2, _) = box.unsent()
    box.handed(seq1, 101)
    assert [m.topic for _, m in box.unsent()] == ["answers/2"]
    assert box.acked(101)
    assert not box.acked(101)
    assert len(box) == 1
    box.handed(seq2, 102)
    box.forget_client()  # a new client: hand it over again
    assert [m.topic for _, m in box.unsent()] == ["answers/2"]


def test_bounded_drops_the_oldest(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.json", limit=3)
    dropped = [box.add(_msg(n)) for n in range(5)]
    assert [d.topic if d else None for d in dropped] == [None, None, None, "answers/0",
                                                         "answers/1"]
    assert [m.topic for _, m in box.unsent()] == ["answers/2", "answers/3", "answers/4"]
    assert box.dropped == 2


def test_survives_a_restart_and_sets_a_corrupt_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "outbox.json"
    box = Outbox(path, limit=10)
    box.add(_msg(1))
    box.add(_msg(2))
    assert box.save(box.snapshot())
    assert not box.save(box.snapshot())  # unchanged: not written again
    again = Outbox(path, limit=10)
    assert again.load() == 2
    restored = [m for _, m in again.unsent()]
    assert restored == [_msg(1), _msg(2)]
    path.write_text("{not json")
    assert Outbox(path, limit=10).load() == 0
    assert path.with_suffix(".corrupt").exists()
