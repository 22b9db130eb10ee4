"""The audio of a `transcribe` call, decoded and checked: a WAV path in the spool, or raw PCM.

A path must lie inside the spool directory the daemon gives this tool (where it puts
recordings for it), so a `call` cannot make the tool read other files the daemon's user can
read. Raw PCM comes base64-encoded with its rate and channel count stated; anything that is not
16 kHz mono 16-bit is refused with a message naming what is wrong. Audio longer than
`MAX_SECONDS` is refused before any work is done.
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path
from typing import Any

import numpy as np

from hermesd.core.errors import BadRequest
from hermesd.core.wav import FIX, SAMPLE_RATE, WavError, read_wav

MAX_SECONDS = 300.0
MAX_FILE = int(MAX_SECONDS * SAMPLE_RATE * 2) + 64 * 1024


def pcm_of(args: dict[str, Any], spool: Path | None) -> bytes:
    """16-bit PCM from the call's arguments; BadRequest naming what is wrong."""
    if ("path" in args) == ("pcm" in args):
        raise BadRequest("transcribe: give exactly one of path or pcm")
    pcm = _from_path(str(args["path"]), spool) if "path" in args else _from_pcm(args)
    if not pcm:
        raise BadRequest("transcribe: the recording holds no samples")
    seconds = len(pcm) / (2 * SAMPLE_RATE)
    if seconds > MAX_SECONDS:
        raise BadRequest(f"transcribe: the recording is {seconds:.0f} s; at most "
                         f"{MAX_SECONDS:.0f} s")
    return pcm


def samples(pcm: bytes) -> np.ndarray:
    """float32 samples in [-1, 1), as whisper.cpp takes them."""
    return np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0


def _from_path(raw: str, spool: Path | None) -> bytes:
    if spool is None:
        raise BadRequest("transcribe: this tool has no spool directory; send pcm instead")
    path = Path(os.path.normpath(Path(raw).absolute()))
    root = Path(os.path.normpath(spool.absolute()))
    if not path.is_relative_to(root):
        raise BadRequest(f"transcribe: path {raw!r} is outside the spool directory {root}; "
                         "send the audio as pcm (hermesctl ask --audio does)")
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE + 1)
    except FileNotFoundError:
        raise BadRequest(f"transcribe: no file {raw!r}") from None
    except OSError as exc:
        raise BadRequest(f"transcribe: cannot read {raw!r}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE:
        raise BadRequest(f"transcribe: {raw!r} is longer than {MAX_SECONDS:.0f} s of audio")
    try:
        return read_wav(data)
    except WavError as exc:
        raise BadRequest(f"transcribe: {raw}: {exc}") from None


def _from_pcm(args: dict[str, Any]) -> bytes:
    rate = args.get("sample_rate", SAMPLE_RATE)
    channels = args.get("channels", 1)
    if rate != SAMPLE_RATE or channels != 1:
        raise BadRequest(f"transcribe: pcm must be {SAMPLE_RATE} Hz mono 16-bit little-endian; "
                         f"got {rate} Hz, {channels} channel(s); {FIX}")
    try:
        pcm = base64.b64decode(str(args["pcm"]), validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest("transcribe: pcm is not valid base64") from None
    if len(pcm) % 2:
        raise BadRequest("transcribe: pcm has an odd number of bytes: it is cut inside a "
                         "16-bit sample")
    return pcm
