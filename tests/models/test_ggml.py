"""The prepared tiny.en ggml file, as whisper.cpp reads it, and files it must refuse."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from hermesd.core.ggml_whisper import (
    FTYPE_F16,
    FTYPE_F32,
    MAGIC,
    GgmlFormatError,
    expected_tensors,
    read_ggml,
)
from hermesd.models.mel import mel_filters
from hermesd.models.whisper import VARIANTS


def test_header_of_the_prepared_tiny_en(whisper_model: Path) -> None:
    raw = whisper_model.read_bytes()[:52]
    assert struct.unpack("<I", raw[:4])[0] == MAGIC == 0x67676D6C  # "lmgg" on disk
    # n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx,
    # n_text_state, n_text_head, n_text_layer, n_mels, ftype
    assert struct.unpack("<11i", raw[4:48]) == (51864, 1500, 384, 6, 4, 448, 384, 6, 4, 80, 1)
    assert struct.unpack("<ii", raw[44:52])[1] == 80  # the mel block begins: n_mel

    model = read_ggml(whisper_model)
    h = model.hparams
    assert h.model_type == "tiny" and not h.multilingual and h.ftype == FTYPE_F16
    assert np.array_equal(model.filters, mel_filters())  # the computed filterbank, as is
    assert model.filters.shape == (80, 201)
    assert len(model.vocab) == 50256  # text tokens; whisper.cpp adds the special ones
    assert model.vocab[0] == b"!" and model.vocab[220] == b" "
    assert model.vocab[50255] == b" gazed"
    assert len(model.tensors) == 167 == len(expected_tensors(h))
    info = model.tensors["decoder.token_embedding.weight"]
    assert info.shape == (51864, 384) and info.ttype == FTYPE_F16
    assert model.tensors["encoder.positional_embedding"].ttype == FTYPE_F32
    conv = model.array("encoder.conv1.weight").astype(np.float32)
    assert np.isfinite(conv).all() and 0.03 < float(conv.std()) < 0.1
    last = max(model.tensors.values(), key=lambda t: t.offset)
    assert last.offset + last.n_bytes == whisper_model.stat().st_size  # nothing missing or extra
    assert whisper_model.stat().st_size == 77_704_698
    assert VARIANTS["tiny.en"].filename == whisper_model.name


def test_damaged_or_foreign_files_are_refused_by_name(whisper_model: Path,
                                                      tmp_path: Path) -> None:
    good = whisper_model.read_bytes()[:4_000_000]
    cases = {
        b"": "the file is empty",
        b"GGUF" + bytes(100): "llama.cpp's format, not whisper.cpp's",
        b"\x7fELF" + bytes(100): "not a whisper ggml model: magic",
        good[:30]: "truncated at byte 4 (reading hparams)",
        good[:400]: "truncated inside the mel filters",
        good: "truncated inside the data of tensor",
        good[:48] + struct.pack("<ii", 40, 201) + good[56:]: "mel filters of 40x201",
    }
    for i, (data, message) in enumerate(cases.items()):
        path = tmp_path / f"case{i}.bin"
        path.write_bytes(data)
        with pytest.raises(GgmlFormatError) as caught:
            read_ggml(path)
        assert message in str(caught.value), (i, caught.value)


def test_a_file_missing_tensors_is_incomplete(whisper_model: Path, tmp_path: Path) -> None:
    model = read_ggml(whisper_model)
    first = min(model.tensors.values(), key=lambda t: t.offset)
    header_end = first.offset - (12 + 4 * len(first.shape) + len(first.name))
    path = tmp_path / "no-tensors.bin"
    path.write_bytes(whisper_model.read_bytes()[:header_end])
    with pytest.raises(GgmlFormatError, match=r"167 tensor\(s\) missing, first "):
        read_ggml(path)
    assert read_ggml(path, check_tensors=False).tensors == {}
