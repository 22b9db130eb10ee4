"""The `memory`, `metrics` and `audit` sections: how hermesd looks after itself for months.

    memory:                 # all optional; sizes like 80M, 1.5G
      interval: 5s          # how often RSS is sampled from /proc
      daemon: {soft: 96M, hard: 192M}
      tools: {soft: 160M, hard: 320M}     # each device tool
      llm: {soft: auto, hard: auto}       # auto: from the model file's size
      whisper: {soft: 400M, hard: 700M}
    metrics:
      listen: 127.0.0.1:9108   # a loopback port, or
      socket: metrics.sock     # a Unix socket (relative to paths.runtime_dir)
    audit:                  # all optional
      retention: 400d       # the trail (writes and other device actions) is kept this long
      log_size: 10M         # audit.jsonl (every action, reads bounded per peer) rotates here
      log_files: 5          # and this many rotated files of it are kept

Over a soft limit hermesd sheds (drops its caches, restarts the tool, unloads the LLM worker until
memory recovers); over a hard limit the child is restarted at once; the daemon over its own hard
limit exits non-zero so systemd restarts it cleanly. Metrics are off unless asked for. The audit
trail is kept by time, whole months at a time; audit.jsonl by size (hermesd/audit.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hermesd.config.reader import Section, describe

MIB = 1024 * 1024
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMG])i?B?\s*$", re.IGNORECASE)
_UNITS = {"K": 1024, "M": MIB, "G": 1024 * MIB}
_LISTEN = re.compile(r"^(127\.0\.0\.1|::1|localhost|0\.0\.0\.0):(\d{1,5})$")


def parse_size(text: str) -> int:
    match = _SIZE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a size like 80M or 1.5G")
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


@dataclass(frozen=True, slots=True)
class Budget:
    soft: int | None  # bytes; None: derived at run time (the LLM from its model)
    hard: int | None


@dataclass(frozen=True, slots=True)
class Memory:
    interval: float = 5.0
    daemon: Budget = Budget(96 * MIB, 192 * MIB)
    tools: Budget = Budget(160 * MIB, 320 * MIB)
    llm: Budget = Budget(None, None)
    whisper: Budget = Budget(400 * MIB, 700 * MIB)


@dataclass(frozen=True, slots=True)
class Metrics:
    listen: tuple[str, int] | None = None  # (host, port) on loopback
    socket: str | None = None  # a Unix socket path
    enabled: bool = field(default=False)


@dataclass(frozen=True, slots=True)
class Audit:
    retention: float = 400 * 86400.0  # seconds a month of the trail is kept after it ended
    log_size: int = 10 * MIB  # bytes at which audit.jsonl rotates
    log_files: int = 5  # rotated files of audit.jsonl kept (audit.jsonl.1 .. .N)


def read_memory(s: Section) -> Memory:
    defaults = Memory()
    interval = s.duration("interval", defaults.interval, min=0.5, max=600)
    budgets = {}
    for name in ("daemon", "tools", "llm", "whisper"):
        b = s.section(name)
        fallback: Budget = getattr(defaults, name)
        soft = _size(b, "soft", fallback.soft)
        hard = _size(b, "hard", fallback.hard)
        if soft is not None and hard is not None and soft > hard:
            b.problem("soft", "soft limit is above the hard limit")
        b.finish()
        budgets[name] = Budget(soft, hard)
    s.finish()
    return Memory(interval=interval, **budgets)


def _size(s: Section, key: str, default: int | None) -> int | None:
    """A memory budget: a size of at least 16M, or `auto` (None: from the model at run time)."""
    if s.raw(key, None) == "auto":
        return None
    given = read_size(s, key, "80M or 1.5G (or auto)")
    if given is None:
        return default
    value, size = given
    if size < 16 * MIB:
        s.problem(key, f"{value} is too small to run anything (at least 16M)")
        return default
    return size


def read_size(s: Section, key: str, example: str) -> tuple[str, int] | None:
    """`key` as a size (`200M`, `512K`): its text and its bytes; None when absent or not a size
    (the problem is recorded, `example` in its words)."""
    raw = s.raw(key, None)
    if raw is None:
        return None
    if not isinstance(raw, str):
        s.problem(key, f"expected a size like {example}, got {describe(raw)}")
        return None
    try:
        return raw, parse_size(raw)
    except ValueError as exc:
        s.problem(key, str(exc).replace("80M or 1.5G", example))
        return None


#: a metrics socket's name: a file of its own in the runtime dir, never a path
_SOCKET_NAME = re.compile(r"(?!\.)[A-Za-z0-9._-]{1,64}")


def read_metrics(s: Section) -> Metrics:
    listen = s.text("listen", None)
    sock = s.text("socket", None)
    address = None
    if listen is not None:
        match = _LISTEN.match(listen)
        if not match or not 1 <= int(match.group(2)) <= 65535:
            s.problem("listen", f"expected host:port on loopback (e.g. 127.0.0.1:9108), got "
                                f"{listen!r}")
        else:
            address = (match.group(1), int(match.group(2)))
    if address is not None and sock is not None:
        s.problem("socket", "give listen or socket, not both")
    if sock is not None and not _SOCKET_NAME.fullmatch(sock):
        # a path could name any file, which the server would replace with its socket (the
        # audit trail, by "../state/…"): a plain name, made in paths.runtime_dir
        s.problem("socket", f"expected a file name in paths.runtime_dir (letters, digits, "
                            f"'.', '_', '-'; e.g. metrics.sock), got {sock!r}")
        sock = None
    s.finish()
    return Metrics(listen=address, socket=sock, enabled=address is not None or sock is not None)


def read_audit(s: Section) -> Audit:
    defaults = Audit()
    retention = s.duration("retention", defaults.retention, min=86400.0)  # at least a day
    log_size = defaults.log_size
    given = read_size(s, "log_size", "10M or 512K")
    if given is not None:
        if 64 * 1024 <= given[1] <= 1024 * MIB:
            log_size = given[1]
        else:
            s.problem("log_size", f"{given[0]} is out of range 64K..1G")
    log_files = s.integer("log_files", defaults.log_files, min=1, max=100)
    s.finish()
    return Audit(retention=retention, log_size=log_size, log_files=log_files)
