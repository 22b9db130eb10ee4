"""Modbus register types: the tables, the types, how many registers each occupies and the raw
range each can hold — in one place, for the config (which checks a point's range and span), the
codec (which converts values; tools/hermes_tools/modbus/codec.py owns these figures and
re-exports them) and the plant simulator.

Pure data; nothing here does I/O or imports the rest of hermesd.
"""

from __future__ import annotations

TABLES = ("holding", "input", "coil", "discrete")
BIT_TABLES = ("coil", "discrete")
#: every type a register point may have
TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
         "float32", "float64", "string")
ORDERS = ("big", "little")
#: registers each fixed-size type occupies (a string's `length` says its own; a bool is a bit)
WORDS = {"int8": 1, "uint8": 1, "int16": 1, "uint16": 1, "int32": 2, "uint32": 2, "int64": 4,
         "uint64": 4, "float32": 2, "float64": 4}
#: the raw range each integer type can hold
INT_RANGE = {"int8": (-(2**7), 2**7 - 1), "uint8": (0, 2**8 - 1),
             "int16": (-(2**15), 2**15 - 1), "uint16": (0, 2**16 - 1),
             "int32": (-(2**31), 2**31 - 1), "uint32": (0, 2**32 - 1),
             "int64": (-(2**63), 2**63 - 1), "uint64": (0, 2**64 - 1)}
INTEGER_TYPES = tuple(INT_RANGE)
FLOAT32_MAX = 3.4028234663852886e38
FLOAT64_MAX = 1.7976931348623157e308
#: the raw range of every numeric type (integers exactly, floats their largest finite values)
TYPE_RANGE: dict[str, tuple[float, float]] = {
    **INT_RANGE, "float32": (-FLOAT32_MAX, FLOAT32_MAX), "float64": (-FLOAT64_MAX, FLOAT64_MAX)}
#: the bits of its register an 8-bit half (`byte: high|low`) holds
BYTE_MASK = {"high": 0xFF00, "low": 0x00FF}


#: the largest magnitude of a measurement. Beyond it are the largest float64s, which devices
#: use for "no value" (1.8e308); history integrates values over time (up to 400 days, 3.5e7 s)
#: and adds them up, and 1.7e308 made every mean and series of its period infinite, so that
#: no history answer over it could be written as JSON. (A float32 register's own "no value",
#: 3.4e38, is refused where registers are decoded: `FLOAT32_NO_VALUE`.)
MAX_MAGNITUDE = 1e300
#: a float32 register's magnitude at or above which it holds the largest float32 (3.4028e38),
#: "no value" on devices that have no NaN to send
FLOAT32_NO_VALUE = 3.4e38
