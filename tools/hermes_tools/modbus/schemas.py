"""The Modbus tool's own actions: raw register access for engineers, and its status.

`read_registers` has effect "read" and `write_registers` effect "write", so hermesd lets only
roles with `raw_read` / `raw_write` call them. Addresses are 0-based PDU addresses; the router
turns Modicon numbers (40011) into these before a call. The effects must never be weakened:
they are what hermesd's policy reads to decide who may call.
"""

from __future__ import annotations

from hermesd.core.protocol import ActionSpec

TABLES = ["holding", "input", "coil", "discrete"]
TYPES = ["bool", "int16", "uint16", "int32", "uint32", "float32", "float64", "string"]
ORDER = {"type": "string", "enum": ["big", "little"]}
ADDRESS = {"type": "integer", "minimum": 0, "maximum": 65535}
LAYOUT = {"type": {"type": "string", "enum": TYPES}, "word_order": ORDER, "byte_order": ORDER,
          "length": {"type": "integer", "minimum": 1, "maximum": 125},
          "bit": {"type": "integer", "minimum": 0, "maximum": 15}}
ANSWER = {"device": {"type": "string"}, "table": {"type": "string", "enum": TABLES},
          "address": ADDRESS, "count": {"type": "integer"}, "ts": {"type": "number"},
          "registers_text": {"type": "string"},
          "registers": {"type": "array", "items": {"type": "integer"}},
          "bits": {"type": "array", "items": {"type": "boolean"}}}

READ_REGISTERS_SPEC = ActionSpec(
    name="read_registers",
    description="Read registers or bits of a Modbus device directly (0-based address); with "
                "`type`, also decode them.",
    input_schema={"type": "object", "required": ["device", "table", "address"],
                  "additionalProperties": False,
                  "properties": {"device": {"type": "string"},
                                 "table": {"type": "string", "enum": TABLES}, "address": ADDRESS,
                                 "count": {"type": "integer", "minimum": 1, "maximum": 2000},
                                 **LAYOUT}},
    output_schema={"type": "object", "required": ["device", "table", "address", "count", "ts"],
                   "properties": {**ANSWER, "value": {"type": ["number", "boolean", "string"]},
                                  "value_text": {"type": "string"}}},
    effect="read")

WRITE_REGISTERS_SPEC = ActionSpec(
    name="write_registers",
    description="Write holding registers or coils of a Modbus device directly: raw `values`, "
                "or one `value` encoded as `type`. Read back to confirm.",
    input_schema={"type": "object", "required": ["device", "table", "address"],
                  "additionalProperties": False,
                  "properties": {"device": {"type": "string"},
                                 "table": {"type": "string", "enum": ["holding", "coil"]},
                                 "address": ADDRESS,
                                 "values": {"type": "array", "minItems": 1, "maxItems": 1968,
                                            "items": {"type": ["integer", "boolean"]}},
                                 "value": {"type": ["number", "boolean", "string"]},
                                 **LAYOUT}},
    output_schema={"type": "object",
                   "required": ["device", "table", "address", "count", "ts", "confirmed"],
                   "properties": {**ANSWER, "confirmed": {"type": "boolean"}}},
    effect="write")

SPAN = {"type": "object", "required": ["table", "address", "count"],
        "additionalProperties": False,
        "properties": {"table": {"type": "string", "enum": TABLES}, "address": ADDRESS,
                       "count": {"type": "integer", "minimum": 1, "maximum": 65536}}}

SCAN_SPEC = ActionSpec(
    name="scan",
    description="Probe unit ids on the link of a configured Modbus device, and read register "
                "ranges of those that answer; bounded in time and requests, read-only.",
    input_schema={"type": "object", "required": ["device"], "additionalProperties": False,
                  "properties": {
                      "device": {"type": "string"},
                      "units": {"type": "array", "minItems": 1, "maxItems": 256,
                                "items": {"type": "integer", "minimum": 0, "maximum": 255}},
                      "probe": {"type": "object", "required": ["table", "address"],
                                "additionalProperties": False,
                                "properties": {"table": {"type": "string", "enum": TABLES},
                                               "address": ADDRESS}},
                      "ranges": {"type": "array", "maxItems": 16, "items": SPAN},
                      "timeout_ms": {"type": "integer", "minimum": 10, "maximum": 5000},
                      "time_limit_s": {"type": "number", "minimum": 0.1, "maximum": 110},
                      "max_requests": {"type": "integer", "minimum": 1, "maximum": 2000},
                      "block": {"type": "integer", "minimum": 1, "maximum": 125}}},
    output_schema={"type": "object",
                   "required": ["device", "link", "found", "silent", "requests", "complete"],
                   "properties": {"device": {"type": "string"}, "link": {"type": "string"},
                                  "found": {"type": "array"}, "silent": {"type": "array"},
                                  "requests": {"type": "integer"},
                                  "complete": {"type": "boolean"}}},
    effect="read")

STATUS_SPEC = ActionSpec(
    name="status",
    description="The tool's view of each device: online, why not, backoff, requests sent.",
    input_schema={"type": "object", "additionalProperties": False, "properties": {}},
    output_schema={"type": "object", "required": ["devices"]},
    effect="none")
