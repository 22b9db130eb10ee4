"""The ggml file format of whisper.cpp models: write one, and read (validate) one.

Layout, all little-endian int32 unless said (whisper.cpp `whisper_model_load`):
  magic 0x67676d6c ("ggml")
  hparams: n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx,
           n_text_state, n_text_head, n_text_layer, n_mels, ftype (1 = big tensors float16)
  mel filters: n_mel, n_fft (here the number of FFT bins), then n_mel * n_fft float32
  vocabulary: count, then per token u32 length and its raw bytes (token ids 0..count-1;
              whisper.cpp adds the special tokens above them itself)
  tensors until end of file: n_dims, name length, type (0 f32, 1 f16), dims innermost first
              (the reverse of numpy's shape), the name, the raw data; no padding.

`read_ggml` checks what whisper.cpp would otherwise trip over (truncation, wrong shapes,
missing or unknown tensors) so a bad file gets a clear error here instead of a crash in C++.
It never loads tensor data (it maps the file); it must never modify a file.
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np

MAGIC = 0x67676D6C
FTYPE_F32 = 0
FTYPE_F16 = 1
GGML_QNT_VERSION_FACTOR = 1000  # ftype = qnt_version * 1000 + ftype in quantised files
HPARAMS = ("n_vocab", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer",
           "n_text_ctx", "n_text_state", "n_text_head", "n_text_layer", "n_mels", "ftype")
TENSOR_DTYPES: dict[int, np.dtype[np.floating]] = {0: np.dtype("<f4"), 1: np.dtype("<f2")}
#: ggml types whisper.cpp also accepts in files (quantised); readable here, not convertible
QUANT_TYPES = {2: "q4_0", 3: "q4_1", 6: "q5_0", 7: "q5_1", 8: "q8_0"}
MAX_VOCAB = 1_000_000
MAX_TOKEN_BYTES = 1024


class GgmlFormatError(ValueError):
    """A file that is not a usable whisper ggml model; the message says what is wrong."""


@dataclass(frozen=True)
class Hparams:
    n_vocab: int
    n_audio_ctx: int
    n_audio_state: int
    n_audio_head: int
    n_audio_layer: int
    n_text_ctx: int
    n_text_state: int
    n_text_head: int
    n_text_layer: int
    n_mels: int
    ftype: int

    def values(self) -> tuple[int, ...]:
        return tuple(getattr(self, name) for name in HPARAMS)

    @property
    def multilingual(self) -> bool:
        return self.n_vocab >= 51865  # whisper.cpp's own test

    @property
    def model_type(self) -> str:
        return {4: "tiny", 6: "base", 12: "small", 24: "medium", 32: "large"}.get(
            self.n_audio_layer, f"{self.n_audio_layer}-layer")


@dataclass(frozen=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]  # numpy order (outermost first)
    ttype: int  # 0 f32, 1 f16, or a quantised ggml type
    offset: int
    n_bytes: int


@dataclass
class GgmlModel:
    path: Path
    hparams: Hparams
    filters: np.ndarray  # [n_mel, n_fft] float32
    vocab: list[bytes]
    tensors: dict[str, TensorInfo] = field(default_factory=dict)
    _buf: mmap.mmap | None = None

    def array(self, name: str) -> np.ndarray:
        info = self.tensors[name]
        dtype = TENSOR_DTYPES.get(info.ttype)
        if dtype is None or self._buf is None:
            raise GgmlFormatError(f"{name}: type {info.ttype} cannot be read as an array here")
        count = info.n_bytes // dtype.itemsize
        return np.frombuffer(self._buf, dtype=dtype, count=count,
                             offset=info.offset).reshape(info.shape)


# -- the tensors whisper.cpp expects -------------------------------------------------------


def expected_tensors(h: Hparams) -> dict[str, tuple[int, ...]]:
    """Every tensor name whisper.cpp loads, with its numpy-order shape."""
    a, t, v = h.n_audio_state, h.n_text_state, h.n_vocab
    out: dict[str, tuple[int, ...]] = {
        "encoder.positional_embedding": (h.n_audio_ctx, a),
        "encoder.conv1.weight": (a, h.n_mels, 3), "encoder.conv1.bias": (a, 1),
        "encoder.conv2.weight": (a, a, 3), "encoder.conv2.bias": (a, 1),
        "encoder.ln_post.weight": (a,), "encoder.ln_post.bias": (a,),
        "decoder.positional_embedding": (h.n_text_ctx, t),
        "decoder.token_embedding.weight": (v, t),
        "decoder.ln.weight": (t,), "decoder.ln.bias": (t,),
    }
    for side, n_layers, d in (("encoder", h.n_audio_layer, a), ("decoder", h.n_text_layer, t)):
        attentions = ("attn", "cross_attn") if side == "decoder" else ("attn",)
        for i in range(n_layers):
            block = f"{side}.blocks.{i}"
            out[f"{block}.mlp_ln.weight"] = (d,)
            out[f"{block}.mlp_ln.bias"] = (d,)
            out[f"{block}.mlp.0.weight"] = (4 * d, d)
            out[f"{block}.mlp.0.bias"] = (4 * d,)
            out[f"{block}.mlp.2.weight"] = (d, 4 * d)
            out[f"{block}.mlp.2.bias"] = (d,)
            for attn in attentions:
                out[f"{block}.{attn}_ln.weight"] = (d,)
                out[f"{block}.{attn}_ln.bias"] = (d,)
                for proj in ("query", "key", "value", "out"):
                    out[f"{block}.{attn}.{proj}.weight"] = (d, d)
                    if proj != "key":  # whisper's key projections have no bias
                        out[f"{block}.{attn}.{proj}.bias"] = (d,)
    return out


def stored_as_f32(name: str, shape: tuple[int, ...]) -> bool:
    """Which tensors whisper.cpp keeps in float32 in an f16 model (the small ones)."""
    return len(shape) < 2 or name in ("encoder.conv1.bias", "encoder.conv2.bias",
                                      "encoder.positional_embedding",
                                      "decoder.positional_embedding")


# -- writing --------------------------------------------------------------------------------


def write_ggml(out: BinaryIO, hparams: Hparams, filters: np.ndarray, vocab: Iterable[bytes],
               tensors: Iterable[tuple[str, np.ndarray]]) -> None:
    """Write a whisper ggml model; each tensor is stored as whisper.cpp expects its type."""
    out.write(struct.pack("<i", MAGIC))
    out.write(struct.pack(f"<{len(HPARAMS)}i", *hparams.values()))
    filters = np.ascontiguousarray(filters, dtype="<f4")
    if filters.ndim != 2:
        raise ValueError(f"mel filters must be 2-D, got shape {filters.shape}")
    out.write(struct.pack("<ii", *filters.shape))
    out.write(filters.tobytes())
    tokens = list(vocab)
    out.write(struct.pack("<i", len(tokens)))
    for token in tokens:
        out.write(struct.pack("<I", len(token)))
        out.write(token)
    for name, source in tensors:
        f32 = hparams.ftype == FTYPE_F32 or stored_as_f32(name, source.shape)
        data = np.ascontiguousarray(source, dtype="<f4" if f32 else "<f2")
        raw_name = name.encode()
        out.write(struct.pack("<iii", data.ndim, len(raw_name), FTYPE_F32 if f32 else FTYPE_F16))
        out.write(struct.pack(f"<{data.ndim}i", *reversed(data.shape)))
        out.write(raw_name)
        out.write(data.tobytes())


# -- reading --------------------------------------------------------------------------------


class _Cursor:
    def __init__(self, buf: mmap.mmap, path: Path) -> None:
        self.buf = buf
        self.pos = 0
        self.path = path

    def ints(self, n: int, what: str, fmt: str = "i") -> tuple[int, ...]:
        size = 4 * n
        if self.pos + size > len(self.buf):
            raise GgmlFormatError(f"{self.path}: truncated at byte {self.pos} (reading {what})")
        values = struct.unpack_from(f"<{n}{fmt}", self.buf, self.pos)
        self.pos += size
        return values

    def skip(self, n: int, what: str) -> int:
        start = self.pos
        if n < 0 or self.pos + n > len(self.buf):
            raise GgmlFormatError(f"{self.path}: truncated inside {what} (byte {self.pos})")
        self.pos += n
        return start


def read_ggml(path: Path, *, check_tensors: bool = True) -> GgmlModel:
    """Parse and validate a whisper ggml file without loading its weights."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except ValueError:
        raise GgmlFormatError(f"{path}: the file is empty") from None
    except OSError as exc:
        raise GgmlFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    cur = _Cursor(buf, path)
    (magic,) = cur.ints(1, "magic", "I")
    if magic != MAGIC:
        hint = " (a GGUF file: that is llama.cpp's format, not whisper.cpp's)" \
            if bytes(buf[:4]) == b"GGUF" else ""
        raise GgmlFormatError(f"{path}: not a whisper ggml model: magic {magic:#010x}, expected "
                              f"{MAGIC:#010x}{hint}")
    h = Hparams(*cur.ints(len(HPARAMS), "hparams"))
    _check_hparams(path, h)
    n_mel, n_fft = cur.ints(2, "mel filter header")
    if n_mel != h.n_mels or not 1 <= n_fft <= 4096:
        raise GgmlFormatError(f"{path}: mel filters of {n_mel}x{n_fft} do not fit n_mels "
                              f"{h.n_mels}")
    start = cur.skip(4 * n_mel * n_fft, "the mel filters")
    filters = np.frombuffer(buf, dtype="<f4", count=n_mel * n_fft, offset=start)
    filters = filters.reshape(n_mel, n_fft)
    (n_tokens,) = cur.ints(1, "vocabulary size")
    if not 0 <= n_tokens <= min(h.n_vocab, MAX_VOCAB):
        raise GgmlFormatError(f"{path}: vocabulary of {n_tokens} tokens for n_vocab {h.n_vocab}")
    vocab: list[bytes] = []
    for i in range(n_tokens):
        (length,) = cur.ints(1, f"length of token {i}", "I")
        if length > MAX_TOKEN_BYTES:
            raise GgmlFormatError(f"{path}: token {i} claims {length} bytes")
        at = cur.skip(length, f"token {i}")
        vocab.append(bytes(buf[at:at + length]))
    model = GgmlModel(path, h, filters, vocab, _buf=buf)
    for info in _tensor_records(cur):
        if info.name in model.tensors:
            raise GgmlFormatError(f"{path}: tensor {info.name} appears twice")
        model.tensors[info.name] = info
    if check_tensors:
        _check_tensors(model)
    return model


def _check_hparams(path: Path, h: Hparams) -> None:
    bad = [name for name in HPARAMS[:-1] if not 0 < getattr(h, name) <= 1_000_000]
    if bad:
        raise GgmlFormatError(f"{path}: implausible hparams {', '.join(bad)} "
                              f"({', '.join(f'{n}={getattr(h, n)}' for n in bad)})")
    if h.n_audio_state != h.n_text_state:
        raise GgmlFormatError(f"{path}: n_audio_state {h.n_audio_state} != n_text_state "
                              f"{h.n_text_state}")
    if h.n_audio_state % h.n_audio_head or h.n_text_state % h.n_text_head:
        raise GgmlFormatError(f"{path}: the state size is not a multiple of the head count")
    if h.ftype % GGML_QNT_VERSION_FACTOR not in (0, 1, *QUANT_TYPES):
        raise GgmlFormatError(f"{path}: unknown ftype {h.ftype}")


def _tensor_records(cur: _Cursor) -> Iterator[TensorInfo]:
    while cur.pos < len(cur.buf):
        n_dims, name_len, ttype = cur.ints(3, "a tensor header")
        if not 1 <= n_dims <= 4 or not 0 < name_len <= 256:
            raise GgmlFormatError(f"{cur.path}: bad tensor header at byte {cur.pos - 12} "
                                  f"(n_dims {n_dims}, name length {name_len})")
        dims = cur.ints(n_dims, "tensor dimensions")
        at = cur.skip(name_len, "a tensor name")
        try:
            name = bytes(cur.buf[at:at + name_len]).decode()
        except UnicodeDecodeError:
            raise GgmlFormatError(f"{cur.path}: tensor name at byte {at} is not text") from None
        shape = tuple(reversed(dims))
        count = int(np.prod(shape, dtype=np.int64))
        if ttype in TENSOR_DTYPES:
            n_bytes = count * TENSOR_DTYPES[ttype].itemsize
        elif ttype in QUANT_TYPES:
            n_bytes = _quant_bytes(ttype, count)
        else:
            raise GgmlFormatError(f"{cur.path}: tensor {name} has unknown type {ttype}")
        offset = cur.skip(n_bytes, f"the data of tensor {name}")
        yield TensorInfo(name, shape, ttype, offset, n_bytes)


def _quant_bytes(ttype: int, count: int) -> int:
    # bytes per block of 32 values: q4_0 18, q4_1 20, q5_0 22, q5_1 24, q8_0 34
    per_block = {2: 18, 3: 20, 6: 22, 7: 24, 8: 34}[ttype]
    return (count // 32) * per_block


def _check_tensors(model: GgmlModel) -> None:
    expected = expected_tensors(model.hparams)
    unknown = sorted(set(model.tensors) - set(expected))
    if unknown:
        raise GgmlFormatError(f"{model.path}: unknown tensor(s) {', '.join(unknown[:3])}")
    missing = [name for name in expected if name not in model.tensors]
    if missing:
        raise GgmlFormatError(f"{model.path}: {len(missing)} tensor(s) missing, first "
                              f"{missing[0]}: the file is incomplete")
    for name, shape in expected.items():
        got = model.tensors[name].shape
        if _ne(got) != _ne(shape):  # whisper.cpp compares ggml's ne[0..2] (and the count)
            raise GgmlFormatError(f"{model.path}: tensor {name} has shape {list(got)}, "
                                  f"expected {list(shape)}")


def _ne(shape: tuple[int, ...]) -> tuple[int, ...]:
    """ggml's dims (innermost first, padded with 1s) and the element count."""
    ne = (*reversed(shape), 1, 1, 1, 1)[:4]
    return (*ne[:3], int(np.prod(shape, dtype=np.int64)))
