"""Writes small CTranslate2 whisper models (format v6) for converter tests: random weights, real layout."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

DTYPE_IDS = {np.dtype("float32"): 0, np.dtype("int8"): 1, np.dtype("int16"): 2,
             np.dtype("int32"): 3, np.dtype("float16"): 4}


def _str(text: str) -> bytes:
    raw = text.encode() + b"\0"
    return struct.pack("<H", len(raw)) + raw


def write_ct2(path: Path, variables: dict[str, np.ndarray], *, spec: str = "WhisperSpec",
              aliases: dict[str, str] | None = None) -> None:
    out = [struct.pack("<I", 6), _str(spec), struct.pack("<I", 3),
           struct.pack("<I", len(variables))]
    for name in sorted(variables):
        arr = np.require(variables[name], requirements="C")  # keeps 0-d arrays 0-d
        out += [_str(name), struct.pack("<B", arr.ndim),
                struct.pack(f"<{arr.ndim}I", *arr.shape) if arr.ndim else b"",
                struct.pack("<BI", DTYPE_IDS[arr.dtype], arr.nbytes), arr.tobytes()]
    aliases = aliases or {}
    out.append(struct.pack("<I", len(aliases)))
    for alias, target in aliases.items():
        out += [_str(alias), _str(target)]
    path.write_bytes(b"".join(out))


def tiny_whisper(directory: Path, *, d: int = 8, heads: int = 2, layers: int = 2,
                 audio_ctx: int = 10, text_ctx: int = 6, seed: int = 1,
                 key_bias: float = 0.0) -> dict[str, np.ndarray]:
    """A whisper-shaped CTranslate2 model and vocabulary in `directory`; returns its variables."""
    rng = np.random.default_rng(seed)
    tokens = ["!", "\"", "hello", "Ġworld", "Ċ", "Ã©t", "<|endoftext|>", "<|startoftranscript|>"]
    n_vocab = 12

    def w(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float16)

    v: dict[str, np.ndarray] = {
        "decoder/activation": np.array(3, np.int8), "decoder/alibi": np.array(0, np.int8),
        "decoder/pre_norm": np.array(1, np.int8), "decoder/scale_embeddings": np.array(0, np.int8),
        "decoder/start_from_zero_embedding": np.array(0, np.int8),
        "decoder/num_heads": np.array(heads, np.int16),
        "encoder/num_heads": np.array(heads, np.int16),
        "encoder/conv1/weight": w(d, 80, 3), "encoder/conv1/bias": w(d),
        "encoder/conv2/weight": w(d, d, 3), "encoder/conv2/bias": w(d),
        "encoder/position_encodings/encodings": w(audio_ctx, d),
        "encoder/layer_norm/gamma": w(d), "encoder/layer_norm/beta": w(d),
        "decoder/embeddings/weight": w(n_vocab, d),
        "decoder/position_encodings/encodings": w(text_ctx, d),
        "decoder/layer_norm/gamma": w(d), "decoder/layer_norm/beta": w(d),
    }
    for side in ("encoder", "decoder"):
        for i in range(layers):
            p = f"{side}/layer_{i}/"
            qkv_bias = w(3 * d)
            qkv_bias[d:2 * d] = key_bias  # CTranslate2 stores zeros: whisper keys have no bias
            v.update({
                p + "self_attention/layer_norm/gamma": w(d),
                p + "self_attention/layer_norm/beta": w(d),
                p + "self_attention/linear_0/weight": w(3 * d, d),
                p + "self_attention/linear_0/bias": qkv_bias,
                p + "self_attention/linear_1/weight": w(d, d),
                p + "self_attention/linear_1/bias": w(d),
                p + "ffn/layer_norm/gamma": w(d), p + "ffn/layer_norm/beta": w(d),
                p + "ffn/linear_0/weight": w(4 * d, d), p + "ffn/linear_0/bias": w(4 * d),
                p + "ffn/linear_1/weight": w(d, 4 * d), p + "ffn/linear_1/bias": w(d),
            })
            if side == "decoder":
                kv_bias = w(2 * d)
                kv_bias[:d] = key_bias
                v.update({
                    p + "attention/layer_norm/gamma": w(d), p + "attention/layer_norm/beta": w(d),
                    p + "attention/linear_0/weight": w(d, d), p + "attention/linear_0/bias": w(d),
                    p + "attention/linear_1/weight": w(2 * d, d),
                    p + "attention/linear_1/bias": kv_bias,
                    p + "attention/linear_2/weight": w(d, d), p + "attention/linear_2/bias": w(d),
                })
    directory.mkdir(parents=True, exist_ok=True)
    write_ct2(directory / "model.bin", v,
              aliases={"decoder/projection/weight": "decoder/embeddings/weight"})
    (directory / "vocabulary.txt").write_text("\n".join(tokens) + "\n", encoding="utf-8")
    return v
