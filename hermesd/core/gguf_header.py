"""A reader of the header of a GGUF model file: its metadata and tensor table, nothing else.

Used to check that a prepared file is the model we pinned (architecture, quantisation, chat
template) and that a configured `.gguf` path is a GGUF file at all before llama.cpp sees it.
Pure Python, reads only the header (the tensor data is never read); raises `GgufError` on
anything that is not a well-formed GGUF v2/v3 header.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

MAGIC = b"GGUF"
MAX_STRING = 16 * 1024 * 1024  # no sane key or value is longer; protects against garbage
MAX_ITEMS = 1 << 24

# value types of GGUF metadata
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
            10: "<Q", 11: "<q", 12: "<d"}
_STRING = 8
_ARRAY = 9


class GgufError(ValueError):
    """Not a readable GGUF header."""


@dataclass
class GgufHeader:
    version: int
    n_tensors: int
    metadata: dict[str, Any] = field(default_factory=dict)  # arrays are summarised by length
    array_lengths: dict[str, int] = field(default_factory=dict)
    tensor_types: dict[int, int] = field(default_factory=dict)  # ggml type -> count

    def get(self, key: str, default: Any = None) -> Any:
        return self.metadata.get(key, default)


def read_header(path: Path, *, tensors: bool = True) -> GgufHeader:
    try:
        with open(path, "rb") as f:
            return _read(f, tensors)
    except struct.error:
        raise GgufError(f"{path}: the GGUF header is truncated") from None
    except OSError as exc:
        raise GgufError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _read(f: BinaryIO, tensors: bool) -> GgufHeader:
    if f.read(4) != MAGIC:
        raise GgufError("not a GGUF file (bad magic)")
    (version,) = _unpack(f, "<I")
    if version not in (2, 3):
        raise GgufError(f"unsupported GGUF version {version}")
    n_tensors, n_kv = _unpack(f, "<QQ")
    if n_tensors > MAX_ITEMS or n_kv > MAX_ITEMS:
        raise GgufError("implausible tensor or key count")
    header = GgufHeader(version, n_tensors)
    for _ in range(n_kv):
        key = _string(f)
        (vtype,) = _unpack(f, "<I")
        if vtype == _ARRAY:
            (itype,), (count,) = _unpack(f, "<I"), _unpack(f, "<Q")
            if count > MAX_ITEMS * 4:
                raise GgufError(f"{key}: implausible array length {count}")
            for _ in range(count):
                _value(f, itype)
            header.array_lengths[key] = count
        else:
            header.metadata[key] = _value(f, vtype)
    if tensors:
        for _ in range(n_tensors):
            _string(f)
            (n_dims,) = _unpack(f, "<I")
            if n_dims > 8:
                raise GgufError("implausible tensor rank")
            f.read(8 * n_dims)
            (ttype,) = _unpack(f, "<I")
            _unpack(f, "<Q")  # offset
            header.tensor_types[ttype] = header.tensor_types.get(ttype, 0) + 1
    return header


def _unpack(f: BinaryIO, fmt: str) -> tuple[Any, ...]:
    size = struct.calcsize(fmt)
    data = f.read(size)
    return struct.unpack(fmt, data)


def _string(f: BinaryIO) -> str:
    (length,) = _unpack(f, "<Q")
    if length > MAX_STRING:
        raise GgufError(f"implausible string length {length}")
    data = f.read(length)
    if len(data) != length:
        raise struct.error("short read")
    return data.decode("utf-8", errors="replace")


def _value(f: BinaryIO, vtype: int) -> Any:
    if vtype == _STRING:
        return _string(f)
    fmt = _SCALARS.get(vtype)
    if fmt is None:
        raise GgufError(f"unknown metadata value type {vtype}")
    return _unpack(f, fmt)[0]
