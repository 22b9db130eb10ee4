"""The CTranslate2 -> ggml converter: tensor mapping round trip, header fields, refusals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hermesd.core.ggml_whisper import FTYPE_F16, FTYPE_F32, expected_tensors, read_ggml
from hermesd.models.ct2 import CT2FormatError, read_ct2
from hermesd.models.ct2_to_ggml import ConversionError, convert, main
from hermesd.models.mel import mel_filters
from tests.models.ct2_writer import tiny_whisper, write_ct2


def test_every_tensor_round_trips_and_fused_attention_is_split(tmp_path: Path) -> None:
    source = tiny_whisper(tmp_path / "ct2", d=8, heads=2, layers=2)
    done = convert(tmp_path / "ct2", tmp_path / "out.bin")
    model = read_ggml(done.path)
    h = model.hparams
    assert (h.n_vocab, h.n_audio_ctx, h.n_audio_state, h.n_audio_head, h.n_audio_layer,
            h.n_text_ctx, h.n_text_state, h.n_text_head, h.n_text_layer, h.n_mels,
            h.ftype) == (12, 10, 8, 2, 2, 6, 8, 2, 2, 80, FTYPE_F16)
    assert set(model.tensors) == set(expected_tensors(h))
    assert done.tensors == len(model.tensors) == 11 + 2 * 15 + 2 * 24

    def back(name: str) -> np.ndarray:
        return model.array(name).astype(np.float16)

    d = 8
    for side in ("encoder", "decoder"):
        for i in range(2):
            src, dst = f"{side}/layer_{i}/", f"{side}.blocks.{i}."
            fused = np.concatenate([back(dst + "attn.query.weight"), back(dst + "attn.key.weight"),
                                    back(dst + "attn.value.weight")])
            assert np.array_equal(fused, source[src + "self_attention/linear_0/weight"])
            bias = np.concatenate([back(dst + "attn.query.bias"), np.zeros(d, np.float16),
                                   back(dst + "attn.value.bias")])
            assert np.array_equal(bias, source[src + "self_attention/linear_0/bias"])
            assert np.array_equal(back(dst + "mlp.2.weight"), source[src + "ffn/linear_1/weight"])
            assert np.array_equal(back(dst + "attn_ln.weight"),
                                  source[src + "self_attention/layer_norm/gamma"])
            if side == "decoder":
                kv = np.concatenate([back(dst + "cross_attn.key.weight"),
                                     back(dst + "cross_attn.value.weight")])
                assert np.array_equal(kv, source[src + "attention/linear_1/weight"])
                assert np.array_equal(back(dst + "cross_attn.value.bias"),
                                      source[src + "attention/linear_1/bias"][d:])
                assert np.array_equal(back(dst + "cross_attn.out.weight"),
                                      source[src + "attention/linear_2/weight"])
    assert np.array_equal(back("decoder.token_embedding.weight"),
                          source["decoder/embeddings/weight"])
    assert np.array_equal(back("encoder.conv1.bias"), source["encoder/conv1/bias"].reshape(d, 1))
    assert np.array_equal(back("encoder.ln_post.bias"), source["encoder/layer_norm/beta"])


def test_types_and_shapes_are_the_ones_whisper_cpp_allocates(tmp_path: Path) -> None:
    tiny_whisper(tmp_path / "ct2")
    model = read_ggml(convert(tmp_path / "ct2", tmp_path / "out.bin").path)
    types = {name: info.ttype for name, info in model.tensors.items()}
    assert types["encoder.conv1.weight"] == FTYPE_F16  # big tensors: half precision
    assert types["decoder.blocks.1.cross_attn.value.weight"] == FTYPE_F16
    for small in ("encoder.conv1.bias", "encoder.positional_embedding",
                  "decoder.positional_embedding", "decoder.ln.bias", "encoder.blocks.0.mlp.0.bias"):
        assert types[small] == FTYPE_F32, small
    assert model.tensors["encoder.conv1.bias"].shape == (8, 1)
    assert model.tensors["encoder.conv1.weight"].shape == (8, 80, 3)


def test_the_vocabulary_is_written_as_raw_bytes_up_to_endoftext(tmp_path: Path) -> None:
    tiny_whisper(tmp_path / "ct2")
    model = read_ggml(convert(tmp_path / "ct2", tmp_path / "out.bin").path)
    # GPT-2's printable stand-ins: "Ġ" is a space, "Ċ" a newline, "Ã©" the UTF-8 of "é"
    assert model.vocab == [b"!", b'"', b"hello", b" world", b"\n", "ét".encode()]
    assert np.array_equal(model.filters, mel_filters())


def test_a_nonzero_key_bias_is_dropped_as_softmax_ignores_it(tmp_path: Path) -> None:
    tiny_whisper(tmp_path / "ct2", key_bias=0.25)
    model = read_ggml(convert(tmp_path / "ct2", tmp_path / "out.bin").path)
    assert "encoder.blocks.0.attn.key.bias" not in model.tensors
    # q.(k + b) = q.k + q.b: the same number added to every score of a query
    rng = np.random.default_rng(0)
    q, keys, b = rng.standard_normal(4), rng.standard_normal((5, 4)), np.full(4, 0.25)

    def softmax(x: np.ndarray) -> np.ndarray:
        e = np.exp(x - x.max())
        out: np.ndarray = e / e.sum()
        return out
    assert np.allclose(softmax(keys @ q), softmax((keys + b) @ q))


def test_output_is_the_same_bytes_every_time(tmp_path: Path) -> None:
    tiny_whisper(tmp_path / "ct2")
    first = convert(tmp_path / "ct2", tmp_path / "a.bin")
    second = convert(tmp_path / "ct2", tmp_path / "b.bin")
    assert first.sha256 == second.sha256
    assert first.path.read_bytes() == second.path.read_bytes()


def _refusal(tmp_path: Path) -> str:
    with pytest.raises(ConversionError) as caught:
        convert(tmp_path / "ct2", tmp_path / "out.bin")
    assert not (tmp_path / "out.bin").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.bin")]  # no leftovers
    return str(caught.value)


def test_inputs_that_cannot_be_converted_are_refused_with_the_reason(tmp_path: Path) -> None:
    source = tiny_whisper(tmp_path / "ct2")
    model_bin = tmp_path / "ct2" / "model.bin"

    write_ct2(model_bin, {**source, "encoder/conv1/weight_scale": np.array(0.5, np.float32)})
    assert "quantised (int8) weights" in _refusal(tmp_path)

    write_ct2(model_bin, source, spec="TransformerSpec")
    assert "a TransformerSpec model, not whisper" in _refusal(tmp_path)

    write_ct2(model_bin, {**source, "decoder/activation": np.array(1, np.int8)})
    assert "decoder/activation is 1, whisper needs 3" in _refusal(tmp_path)

    write_ct2(model_bin, source)
    full = model_bin.read_bytes()
    model_bin.write_bytes(full[:-100])
    assert "truncated" in _refusal(tmp_path)
    model_bin.write_bytes(full + b"\0")
    assert "1 unexpected bytes after the last record" in _refusal(tmp_path)
    model_bin.write_bytes(full)

    vocab = tmp_path / "ct2" / "vocabulary.txt"
    vocab.write_text("a\nb\n", encoding="utf-8")
    assert "no <|endoftext|> token" in _refusal(tmp_path)
    vocab.write_text("a\n你\n<|endoftext|>\n", encoding="utf-8")
    assert "outside GPT-2's byte alphabet" in _refusal(tmp_path)
    vocab.unlink()
    assert "no vocabulary.txt or vocabulary.json" in _refusal(tmp_path)


def test_the_reader_refuses_what_is_not_ctranslate2(tmp_path: Path) -> None:
    junk = tmp_path / "model.bin"
    junk.write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(CT2FormatError, match=r"binary version \d+ is not one this reader knows"):
        read_ct2(junk)
    junk.write_bytes(b"")
    with pytest.raises(CT2FormatError, match="cannot read"):
        read_ct2(junk)


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tiny_whisper(tmp_path / "ct2")
    assert main([str(tmp_path / "ct2"), str(tmp_path / "out.bin")]) == 0
    out = capsys.readouterr().out
    assert "whisper 2-layer.en, 89 tensors, 6 tokens" in out and "sha256" in out
    assert main([str(tmp_path / "missing"), str(tmp_path / "x.bin")]) == 1
    assert "cannot read" in capsys.readouterr().err
