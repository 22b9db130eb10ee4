"""Request framing on the control socket: 64 KiB frames, except an `ask` carrying a recording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermesd import ctl
from hermesd.control.bounds import MAX_AUDIO_REQUEST, MAX_RECORDING, MAX_REQUEST
from hermesd.control.requests import RequestDecoder, parse
from hermesd.core import strict_json
from hermesd.core.errors import BadRequest, ProtocolError


def _frame(obj: dict[str, object], compact: bool = True) -> bytes:
    sep = (",", ":") if compact else (", ", ": ")
    return json.dumps(obj, separators=sep).encode() + b"\n"


@pytest.mark.parametrize("compact", [True, False])
def test_an_audio_ask_may_be_large_even_in_small_pieces(compact: bool) -> None:
    frame = _frame({"op": "ask", "audio_wav": "A" * (3 * MAX_REQUEST), "role": "viewer"}, compact)
    decoder = RequestDecoder()
    frames = []
    for i in range(0, len(frame), 4096):
        frames += decoder.feed(frame[i:i + 4096])
    assert len(frames) == 1 and frames[0]["role"] == "viewer"
    assert parse(frames[0]).fields["audio_wav"] == "A" * (3 * MAX_REQUEST)


def test_other_frames_keep_the_small_limit_and_are_refused_early() -> None:
    decoder = RequestDecoder()
    with pytest.raises(ProtocolError, match="exceeds 65536"):
        decoder.feed(b'{"op":"ask","role":"viewer","audio_wav":"' + b"A" * MAX_REQUEST)
    with pytest.raises(ProtocolError, match="exceeds 65536"):
        RequestDecoder().feed(b'{"op":"ask","text":"' + b"A" * (MAX_REQUEST + 10))


def test_even_an_audio_ask_has_a_limit() -> None:
    decoder = RequestDecoder()
    decoder.feed(b'{"op":"ask","audio_wav":"')
    for _ in range(MAX_AUDIO_REQUEST // (1 << 20) - 1):
        assert decoder.feed(b"A" * (1 << 20)) == []
    with pytest.raises(ProtocolError, match=f"exceeds {MAX_AUDIO_REQUEST}"):
        decoder.feed(b"A" * (1 << 20))


def test_small_frames_after_a_large_one() -> None:
    decoder = RequestDecoder()
    big = _frame({"op": "ask", "audio_wav": "A" * (2 * MAX_REQUEST)})
    frames = decoder.feed(big + _frame({"op": "status"}) + b'{"op":"tools"')
    assert [f["op"] for f in frames] == ["ask", "status"]
    assert decoder.feed(b"}\n") == [{"op": "tools"}]


def test_ask_and_listen_fields() -> None:
    with pytest.raises(BadRequest, match="exactly one of text, audio or audio_wav"):
        parse({"op": "ask", "text": "x", "audio_wav": "y"})
    with pytest.raises(BadRequest, match="exactly one of text, audio or audio_wav"):
        parse({"op": "ask"})
    assert parse({"op": "listen"}).fields == {}
    assert parse({"op": "listen", "window": 5}).fields == {"window": 5}
    with pytest.raises(BadRequest, match=r"window must be in \(0, 60\] seconds"):
        parse({"op": "listen", "window": 0})
    with pytest.raises(BadRequest, match="unknown field"):
        parse({"op": "listen", "seconds": 5})


def test_the_largest_recording_hermesctl_sends_fits_the_daemons_frame(tmp_path: Path) -> None:
    """hermesctl refuses a WAV over MAX_RECORDING itself; one at the limit, with every flag
    the command takes, is a frame the daemon accepts (not a `bad frame`)."""
    wav = tmp_path / "long.wav"
    wav.write_bytes(b"\xff" * MAX_RECORDING)
    args = ctl.build_parser().parse_args(["ask", "--audio", str(wav), "--role", "operator",
                                          "--timeout", "120", "--dry-run"])
    frame = strict_json.encode(ctl.make_request(args)) + b"\n"
    frames = RequestDecoder().feed(frame)
    assert len(frames) == 1 and len(frames[0]["audio_wav"]) > 8_000_000
    wav.write_bytes(b"\xff" * (MAX_RECORDING + 1))
    with pytest.raises(ctl.Usage, match="larger than"):
        ctl.make_request(args)


def test_a_frame_with_a_byte_order_mark_is_refused_naming_it() -> None:
    with pytest.raises(ProtocolError, match=r"begins with a UTF-8 byte-order mark \(EF BB BF\)"):
        RequestDecoder().feed(b'\xef\xbb\xbf{"op": "status"}\n')
    decoder = RequestDecoder()  # assembled from pieces too
    assert decoder.feed(b'\xef\xbb\xbf{"op": ') == []
    with pytest.raises(ProtocolError, match="byte-order mark"):
        decoder.feed(b'"status"}\n')
