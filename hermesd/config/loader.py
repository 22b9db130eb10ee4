"""Load a YAML config once, validate all of it, and freeze it into `model.Config`.

All problems are collected and raised together as one `ConfigError`; nothing is dropped or
silently corrected. Duplicate keys in a YAML mapping are errors too (PyYAML would keep the last).
"""

from __future__ import annotations

import math
import os
import re
import stat
from dataclasses import MISSING, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from hermesd.config import profiles, strict_yaml
from hermesd.config.driver_table import drivers
from hermesd.config.drivers import DeviceKeys, read_deadband
from hermesd.config.history import read_alarms, read_history
from hermesd.config.home_assistant import read_device_info, read_ha
from hermesd.config.model import (
    Access,
    Config,
    Device,
    Intent,
    Llm,
    Mqtt,
    MqttTls,
    Node,
    Paths,
    Point,
    Role,
    Voice,
)
from hermesd.config.operations import read_audit, read_memory, read_metrics
from hermesd.config.profiles import Profile
from hermesd.config.reader import (
    Problems,
    Section,
    blank,
    describe,
    folded,
    shown_as_written,
    unshown,
    unshown_what,
)
from hermesd.config.value_maps import read_map
from hermesd.core.errors import ConfigError

IDENT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
TOPIC_LEVEL = re.compile(r"[^/#+\x00]+(?:/[^/#+\x00]+)*")
#: an MQTT topic filter: `+` only as a whole level, `#` only as the whole last level
TOPIC_FILTER = re.compile(r"(?:[^/#+\x00]*|\+)(?:/(?:[^/#+\x00]*|\+))*(?:/#)?|#")
MAX_TOPIC_BYTES = 256  # as the mqtt tool bounds a response topic
MAX_SOCKET_PATH = 107  # bytes of an AF_UNIX path (sun_path holds 108 with its NUL)
#: keys of `driver: mqtt` devices and points that name a topic of the device
DEVICE_TOPIC_KEYS = ("availability_topic", "state_topic", "command_topic")
LANGUAGE = re.compile(r"auto|[a-z]{2,3}")
#: a language code of a point's `names`: "zh", "de", "pt-BR", "zh-Hant"
NAME_LANGUAGE = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?")
MAX_DESCRIPTION = 300  # characters: it goes into the model's prompt with every point's
SHA256 = re.compile(r"[0-9a-fA-F]{64}")
TOP_KEYS = ("node", "paths", "access", "llm", "devices", "mqtt", "voice", "intents", "memory",
            "metrics", "audit", "history")




#: the largest config file read. A plant of a few thousand points is well under it; parsing
#: one costs about 100 bytes of memory per byte of YAML and runs on the daemon's loop at a
#: reload, so a larger file would outgrow the memory budget and hold the watchdog's ping (and
#: one tool's settings must fit a 1 MiB frame in any case)
MAX_CONFIG_BYTES = 1024 * 1024


def _read_regular(source: Path) -> bytes:
    """The bytes of a regular file of at most MAX_CONFIG_BYTES. Opened without blocking and
    refused by name when it is no regular file: a FIFO put where the config was would hold the
    daemon's loop until someone wrote to it, and /dev/zero would be read until memory ran out."""
    fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ConfigError([("(file)", f"{source} is not a regular file (it is a "
                                          f"{_file_kind(mode)})")])
        chunks = []
        size = 0
        while size <= MAX_CONFIG_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > MAX_CONFIG_BYTES:
        raise ConfigError([("(file)", f"{source} is larger than {MAX_CONFIG_BYTES} bytes")])
    return b"".join(chunks)


def _file_kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISDIR, "directory")):
        if test(mode):
            return kind
    return "special file"


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read, validate and freeze a config file; raises ConfigError listing every problem."""
    source = Path(os.path.normpath(Path(path).absolute()))
    try:
        text = _read_regular(source).decode("utf-8")
    except OSError as exc:
        raise ConfigError([("(file)", f"cannot read {source}: {exc.strerror or exc}")]) from None
    except UnicodeDecodeError:
        raise ConfigError([("(file)", f"{source} is not UTF-8 text")]) from None
    try:
        data = strict_yaml.load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = getattr(exc, "problem", None) or str(exc)
        raise ConfigError([("(file)", f"YAML syntax error{where}: {what}")]) from None
    return validate(data, source)


def validate(data: Any, source: Path) -> Config:
    problems = Problems()
    top = Section(problems, "", data, known=TOP_KEYS)
    base = source.parent

    node = _node(top.section("node", required=True))
    paths = _paths(top.section("paths"), base)
    llm = _llm(top.section("llm"))
    devices, points = _devices(top, problems, paths.profiles)
    access = _access(top.section("access"), points)
    mqtt = _mqtt(top.section("mqtt"), base) if top.raw("mqtt", None) is not None else None
    voice = _voice(top.section("voice"), base)
    intents = _intents(top, points)
    memory = read_memory(top.section("memory"))
    metrics = read_metrics(top.section("metrics"))
    audit = read_audit(top.section("audit"))
    history = read_history(top.section("history"), top.raw("history", None) is not None)
    top.finish()

    roles = access.roles
    if mqtt is not None and mqtt.command_role not in roles:
        problems.add("mqtt.command_role", _unknown_role(mqtt.command_role, roles))
    if top.has("voice") and voice.role not in roles:
        problems.add("voice.role", _unknown_role(voice.role, roles))
    for dev in devices.values():
        # each exec device's tool listens on <runtime_dir>/<device>.sock: a path past what a
        # Unix socket takes, and the tool never starts, restarted every 30 s (atk25s)
        sock = paths.runtime_dir / f"{dev.id}.sock"
        if dev.driver == "exec" and len(str(sock).encode()) > MAX_SOCKET_PATH:
            problems.add(f"devices.{dev.id}", f"the tool's socket {sock} is "
                                              f"{len(str(sock).encode())} bytes, more than a "
                                              f"Unix socket path takes ({MAX_SOCKET_PATH}): "
                                              "give the device a shorter id")
    for name, worker in (("llm", "hermesd's LLM worker"), ("whisper", "the voice tool"),
                         ("control", "hermesd's control socket (control.sock)")):
        # hermesd's own workers run as tools of these names, and `call` refuses them: an exec
        # device so named would be replaced by the worker, or be one nobody may call; and a
        # tool's socket is <device>.sock: one named control took hermesd's own (atk24s, #2)
        if devices.get(name) is not None and devices[name].driver == "exec":
            problems.add(f"devices.{name}", f"the name {name} is taken by {worker}; rename "
                                            "this device")
    if metrics.socket is not None:
        # the runtime dir holds hermesd's own sockets: a metrics socket of one's name would
        # take its place, or be taken (atk21, METRICSOCK)
        tools = {"llm", "whisper", "modbus", "mqtt", "serial", *devices}
        taken = {"control.sock", "voice", *(f"{t}.sock" for t in tools)}
        if metrics.socket in taken:
            problems.add("metrics.socket", f"{metrics.socket} is the name of one of hermesd's "
                                           "own sockets (control, tools, workers, voice); "
                                           "name another file, e.g. metrics.sock")
    if mqtt is None:
        for dev in devices.values():
            if dev.driver == "mqtt":
                problems.add(f"devices.{dev.id}.driver",
                             "driver mqtt needs the top-level `mqtt` section (the broker)")
    else:
        for path, message in _mqtt_topic_clashes(mqtt, devices):
            problems.add(path, message)
    if problems.items:
        # report in the order of the file's sections, as a person reads it
        order = {key: i for i, key in enumerate(data)} if isinstance(data, dict) else {}
        items = sorted(problems.items,
                       key=lambda p: order.get(p[0].split(".")[0].split("[")[0], len(order)))
        raise ConfigError(items)
    return Config(source=source, node=node, paths=paths, access=access, llm=llm,
                  devices=MappingProxyType(devices), mqtt=mqtt, voice=voice,
                  intents=tuple(intents), points=MappingProxyType(points), memory=memory,
                  metrics=metrics, audit=audit, history=history)


def _unknown_role(role: str, roles: Any) -> str:
    return f"role {role!r} is not defined in access.roles ({', '.join(sorted(roles)) or 'none'})"


# -- sections ------------------------------------------------------------------------------


def _node(s: Section) -> Node:
    node_id = s.text("id", "hermesd", required=True, pattern=IDENT,
                     what="an id of letters, digits, _ and -")
    name = s.text("name", node_id)
    shown_as_written(s, name=name)
    s.finish()
    return Node(id=node_id, name=name)


#: trees of the system itself: no state or runtime dir of ours belongs anywhere in them
SYSTEM_TREES = ("/proc", "/sys", "/dev", "/boot", "/etc", "/usr", "/bin", "/sbin", "/lib",
                "/lib32", "/lib64", "/libx32")
#: directories shared by everything on the machine: ours may be inside one, never one itself
SHARED_DIRS = ("/var/lib", "/var/log", "/var/cache", "/var/tmp", "/var/spool", "/var/run",  # noqa: S108
               "/var/lock", "/var/mail", "/var/opt", "/var/local", "/run/user", "/run/lock",
               "/run/systemd", "/home", "/srv", "/opt", "/mnt", "/media")


def system_dir(path: Path) -> str | None:
    """Why `path` is no directory hermesd may take for its own, or None if it may.

    hermesd creates its dirs, checks their owner and mode, and keeps sockets and state files
    in them; a shared or system directory is none of that: `/` or any top-level directory
    (`/run`, `/var`, `/tmp`), anything under the system's own trees (`/etc`, `/usr`, `/proc`,
    ...), or a shared directory itself (`/var/lib`, `/run/user`, `/home`, ...)."""
    for candidate in (path, Path(os.path.realpath(path))):  # a link to / is / too
        text = str(candidate)
        if len(candidate.parts) <= 2:
            return f"{text} is {'the root directory' if text == '/' else 'a top-level directory'}"
        for tree in SYSTEM_TREES:
            if text == tree or text.startswith(tree + "/"):
                return f"{text} is inside {tree}, which belongs to the system"
        if text in SHARED_DIRS:
            return f"{text} is shared by everything on this machine"
    return None


def _paths(s: Section, base: Path) -> Paths:
    state = s.text("state_dir", "/var/lib/hermesd")
    runtime = s.text("runtime_dir", "/run/hermesd")
    profile_dirs = []
    for i, folder in enumerate(s.texts("profiles")):
        where = Path(os.path.normpath(base / folder))
        if not where.is_dir():
            s.problems.add(f"{s.at('profiles')}[{i}]", f"no directory {where}")
        else:
            profile_dirs.append(where)
    s.finish()
    state_dir = Path(os.path.normpath(base / state))
    run_dir = Path(os.path.normpath(base / runtime))
    # AF_UNIX paths are limited to 107 bytes; the longest we make is <runtime>/whisper.sock
    if len(str(run_dir / "control.sock").encode()) > 100:
        s.problem("runtime_dir", f"{run_dir} is too long for a Unix socket path (max ~90 bytes)")
    for key, path, example in (("state_dir", state_dir, "/var/lib/hermesd"),
                               ("runtime_dir", run_dir, "/run/hermesd")):
        why = system_dir(path)
        if why is not None:
            s.problem(key, f"{why}: give hermesd a directory of its own, e.g. {example}")
    return Paths(state_dir=state_dir, runtime_dir=run_dir, profiles=tuple(profile_dirs))


def _llm(s: Section) -> Llm:
    model = s.text("model", "default")
    if isinstance(model, str) and model != "default" and not model.endswith(".gguf"):
        s.problem("model", f"expected `default` or a path to a .gguf file, got {model!r}")
    threads_raw = s.raw("threads", "auto")
    threads = 0
    if threads_raw != "auto":
        if isinstance(threads_raw, bool) or not isinstance(threads_raw, int) \
                or not 1 <= threads_raw <= 256:
            s.problem("threads", f"expected `auto` or a number of threads 1..256, got "
                                 f"{describe(threads_raw)}")
        else:
            threads = threads_raw
    context = s.integer("context", 2048, min=256, max=131072)
    enabled = s.flag("enabled", True)
    timeout = s.duration("timeout", 10.0, min=0.5, max=600)
    queue = s.integer("queue", 2, min=0, max=64)
    s.finish()
    return Llm(model=model, threads=threads, context=context, enabled=enabled, timeout=timeout,
               queue=queue)


_COMMON_POINT_KEYS = ("name", "aliases", "description", "names", "unit", "max_age", "writable",
                      "min", "max", "choices", "step", "deadband", "map", "ha", "alarms")


def _devices(top: Section, problems: Problems, profile_dirs: tuple[Path, ...] = ()) \
        -> tuple[dict[str, Device], dict[str, Point]]:
    devices: dict[str, Device] = {}
    loaded: dict[Any, Profile | str] = {}  # each profile read once, and its problem said once
    points: dict[str, Point] = {}
    owner: dict[str, str] = {}
    known = drivers()
    by_driver: dict[str, list[tuple[str, DeviceKeys]]] = {}
    devs = top.section("devices")
    for dev_id, given in devs.mapping_items():
        raw, profile = given, None
        if isinstance(given, dict) and "profile" in given:
            profile = _profile(given["profile"], loaded, profile_dirs, problems,
                               devs.at(dev_id) + ".profile")
            if profile is not None:  # the model's register format, unless the device says
                raw = {**profile.device, **given}
        s = Section(problems, devs.at(dev_id), raw)
        devs.known.add(dev_id)
        if not IDENT.fullmatch(dev_id):
            s.problem(None, "a device id may hold letters, digits, _ and - only")
        driver = s.choice("driver", tuple(known), required=True)
        if driver is None:
            s.known.update(s.data)  # no driver, no way to judge its other keys
            continue
        if driver == "exec" and dev_id in known and dev_id != "exec":
            # its tool would be named like the built-in one: events of one taken for the other
            s.problem(None, f"an exec device may not be named {dev_id!r}, the name of the "
                            f"built-in {dev_id} tool")
        if s.has("profile") and driver != "modbus":
            s.problem("profile", "profiles are Modbus register maps: only driver modbus takes "
                                 "one")
            profile = None
        info = read_device_info(s)
        if profile is not None:  # the model's maker and name, unless the device says
            info = replace(info, manufacturer=info.manufacturer or
                           profile.about.get("manufacturer"),
                           model=info.model or profile.about.get("model"))
        keys = known[driver].read_device(s)
        by_driver.setdefault(driver, []).append((devs.at(dev_id), keys))
        dev_points: dict[str, Point] = {}
        pts = s.section("points")
        own = dict(pts.mapping_items())
        pts.known.update(own)
        listed = profiles.expand(profile, dev_id, own) if profile is not None else \
            [(pid, pts.at(pid), praw) for pid, praw in own.items()]
        for pid, where, praw in listed:
            point = _point(Section(problems, where, praw), pid, dev_id, driver, keys,
                           known[driver].read_point)
            if point is None:
                continue
            if pid in owner:
                problems.add(where, f"point id {pid!r} is already used by device "
                                          f"{owner[pid]}; point ids must be unique")
                continue
            owner[pid] = dev_id
            dev_points[pid] = point
            points[pid] = point
        check_points = known[driver].check_points
        for path, message in check_points(pts.path, dev_points) if check_points else ():
            problems.add(path, message)
        s.finish()
        devices[dev_id] = Device(id=dev_id, driver=driver, points=MappingProxyType(dev_points),
                                 params=MappingProxyType(keys.params),
                                 poll_interval=keys.poll_interval, timeout=keys.timeout,
                                 info=info)
    for driver, entries in by_driver.items():
        check = known[driver].check_devices
        for path, message in check(entries) if check else ():
            problems.add(path, message)
    _check_names(points, problems)
    return devices, points


def _profile(name: Any, loaded: dict[Any, Profile | str], dirs: tuple[Path, ...],
             problems: Problems, path: str) -> Profile | None:
    """The named profile, or None with its problem added (once per config, at its first user)."""
    key = name if isinstance(name, str) else repr(name)
    if key not in loaded:
        try:
            loaded[key] = profiles.load(name, profiles.search_dirs(dirs))
        except profiles.ProfileError as exc:
            loaded[key] = str(exc)
            problems.add(path, str(exc))
    found = loaded[key]
    return found if isinstance(found, Profile) else None


def _point(s: Section, pid: str, dev_id: str, driver: str, dev: DeviceKeys,
           read_point: Any) -> Point | None:
    if not s.ok:
        return None
    if not IDENT.fullmatch(pid):
        s.problem(None, "a point id may hold letters, digits, _ and - only")
    name = s.text("name", pid.replace("_", " "))
    aliases = s.texts("aliases")
    description = s.text("description", None)
    if description is not None and len(description) > MAX_DESCRIPTION:
        s.problem("description", f"is {len(description)} characters; at most {MAX_DESCRIPTION} "
                                 "(a sentence that says what the point is)")
    names = _names(s)
    unit = s.text("unit", None)
    shown_as_written(s, name=name, aliases=aliases, description=description, unit=unit,
                      **{f"names.{lang}": text for lang, text in names.items()})
    max_age = s.duration("max_age", None, min=0.05)
    writable = s.flag("writable", False)
    keys = read_point(s, dev)
    lo = s.number("min", None)
    hi = s.number("max", None)
    choices = s.texts("choices")
    _distinct_choices(s, choices)
    step = s.number("step", None, min=1e-9, positive=True)
    deadband = read_deadband(s)
    value_map = read_map(s, keys.kind, keys.lo, keys.hi, NAME_LANGUAGE)
    shown_as_written(s, choices=choices, **{
        f"map.{e.raw}.{key}": text for e in value_map
        for key, text in (("name", e.name), *((f"names.{k}", v) for k, v in e.names.items()))})
    kind = keys.kind
    if value_map:
        # the point is its names now: policy, router, replies and HA see text with choices
        for key in ("min", "max", "step", "choices"):
            if s.has(key):
                s.problem(key, f"a point with a `map` takes no {key}: its names are what may "
                               "be written")
        kind, choices, lo, hi, step = "string", tuple(e.name for e in value_map), None, None, None
    ha = read_ha(s, kind, unit, bool(value_map))
    alarms = read_alarms(s, kind)
    s.finish()
    if writable and not keys.writable_ok:
        s.problem("writable", keys.why_not_writable)
    numeric = kind in ("int", "float")
    if (lo is not None or hi is not None) and not numeric:
        s.problem("min" if lo is not None else "max", f"a {keys.kind} point takes no min/max")
    if writable and numeric and (not s.has("min") or not s.has("max")):
        s.problem("min" if not s.has("min") else "max",
                  "a writable number needs both min and max: writes outside them are refused")
    if lo is not None and hi is not None and lo > hi:
        s.problem("min", f"min {lo} is greater than max {hi}")
    for key, bound in (("min", lo), ("max", hi)):
        if bound is None or keys.lo is None or keys.hi is None:
            continue
        if not keys.lo - 1e-9 <= bound <= keys.hi + 1e-9:
            s.problem(key, f"{bound} cannot be held by this point's type "
                           f"(range {_fmt(keys.lo)}..{_fmt(keys.hi)})")
    if choices and keys.kind != "string" and not value_map:
        s.problem("choices", "only string points take choices")
    if deadband is not None and not numeric:
        s.problem("deadband", f"a {keys.kind} point takes no deadband: every change of it is "
                              "published and kept in history")
    if step is not None and not numeric:
        s.problem("step", f"a {keys.kind} point takes no step")
    elif step is not None and keys.step is not None and not _multiple(step, keys.step):
        s.problem("step", f"{step:g} is not a multiple of what the register holds "
                          f"({keys.step:g})")
    return Point(id=pid, device=dev_id, driver=driver, name=name or pid,  # type: ignore[arg-type]
                 aliases=aliases, description=description, names=MappingProxyType(names),
                 unit=unit, max_age=max_age, poll_interval=keys.poll_interval,
                 deadband=deadband or keys.deadband, kind=kind, writable=writable,
                 min=lo, max=hi, choices=choices,
                 step=None if value_map else step or keys.step,
                 step_origin=keys.step_origin, params=MappingProxyType(keys.params),
                 value_map=value_map, ha=ha, alarms=alarms)


def _names(s: Section) -> dict[str, str]:
    """`names: {zh: 1号窑干球温度}`: the point's name in other languages, by language code."""
    names: dict[str, str] = {}
    sec = s.section("names")
    for lang, text in sec.mapping_items():
        sec.known.add(lang)
        if not NAME_LANGUAGE.fullmatch(lang):
            sec.problem(lang, "is not a language code such as zh, de or pt-BR")
        elif not isinstance(text, str) or blank(text):
            sec.problem(lang, f"expected the point's name in that language, got {describe(text)}")
        else:
            names[lang] = text
    return names


def _distinct_choices(s: Section, choices: tuple[str, ...]) -> None:
    """Two choices an operator cannot tell apart (Auto and auto, au<ZWJ>to, full-width ａｕｔｏ)
    are one word said two ways: which of them a command means is anyone's guess."""
    seen: dict[str, int] = {}
    for i, choice in enumerate(choices):
        first = seen.setdefault(folded(choice), i)
        if first != i:
            s.problem(f"choices[{i}]", f"{choice!r} is choice {choices[first]!r} "
                                       f"(choices[{first}]) written another way")


def _multiple(value: float, step: float) -> bool:
    ratio = value / step
    return abs(ratio - round(ratio)) < 1e-6


def _fmt(x: float) -> str:
    return f"{x:g}" if math.isfinite(x) else str(x)


def _check_names(points: dict[str, Point], problems: Problems) -> None:
    """A name or alias that names two points would make "read X" ambiguous; so would two that
    only look alike (a zero-width joiner inside, full-width letters): one to an operator."""
    seen: dict[str, tuple[str, str]] = {}  # folded label -> (point id, label as written)
    for pid, point in points.items():
        for label in (point.name, *point.aliases, *point.names.values()):
            key = folded(label)
            other, written = seen.get(key, (pid, label))
            if other != pid:
                shown = "" if written == label else f" (as {written!r})"
                problems.add(f"devices.{point.device}.points.{pid}",
                             f"name or alias {label!r} also names point {other}{shown}")
            seen.setdefault(key, (pid, label))


def _access(s: Section, points: dict[str, Point]) -> Access:
    roles: dict[str, Role] = {}
    rs = s.section("roles")
    for name, raw in rs.mapping_items():
        rs.known.add(name)
        r = Section(rs.problems, rs.at(name), raw)
        read = r.flag("read", True)
        write_raw = r.raw("write", False)
        write: bool | frozenset[str] = False
        if isinstance(write_raw, bool):
            write = write_raw
        elif isinstance(write_raw, list):
            ids = []
            for i, pid in enumerate(write_raw):
                where = f"{r.at('write')}[{i}]"
                if not isinstance(pid, str):
                    rs.problems.add(where, f"expected a point id, got {describe(pid)}")
                elif pid not in points:
                    near = [p for p in points if p.startswith(pid[:4])][:1] if pid else []
                    hint = f" (did you mean {near[0]!r}?)" if near else ""
                    rs.problems.add(where, f"unknown point id {pid!r}{hint}")
                elif not points[pid].writable:
                    rs.problems.add(where, f"point {pid!r} is not writable")
                else:
                    ids.append(pid)
            write = frozenset(ids)
        else:
            r.problem("write", f"expected true, false or a list of point ids, got "
                               f"{describe(write_raw)}")
        roles[name] = Role(name=name, read=read, write=write,
                           raw_read=r.flag("raw_read", False),
                           raw_write=r.flag("raw_write", False),
                           writes_per_minute=r.integer("writes_per_minute", 60, min=1, max=100000))
        r.finish()
    if not roles:
        roles["viewer"] = Role(name="viewer", read=True, write=False)
    default = s.text("default_role", "viewer")
    if default not in roles:
        s.problem("default_role", _unknown_role(default, roles))
    else:
        # DESIGN: default roles are read-only (the role of every peer nobody named)
        role = roles[default]
        powers = [p for p, has in (("write", bool(role.write)), ("raw_write", role.raw_write))
                  if has]
        if powers:
            s.problem("default_role", f"role {default!r} has {' and '.join(powers)}: the "
                                      "default role is every unnamed user's and must be "
                                      "read-only; give writers a role in access.users")
    users: dict[str, str] = {}
    us = s.section("users")
    for user, role in _user_items(us):
        us.known.add(user)
        problem = _user_key(user)
        if problem is not None:
            us.problem(user, problem)
        elif not isinstance(role, str) or role not in roles:
            us.problem(user, _unknown_role(str(role), roles))
        else:
            users[user] = role
    s.finish()
    return Access(default_role=default, roles=MappingProxyType(roles),
                  users=MappingProxyType(users))


USER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,31}\$?")
MAX_UID = 2**32 - 2  # (uid_t)-1 is "no user"


def _user_items(us: Section) -> list[tuple[str, Any]]:
    """access.users entries; a uid written as a YAML number (`1000: operator`) is taken as the
    text it is, a negative or odd key is refused by `_user_key`."""
    items = []
    for key, role in us.data.items():
        if isinstance(key, int) and not isinstance(key, bool):
            items.append((str(key), role))
        elif isinstance(key, str):
            items.append((key, role))
        else:
            us.problem(None, f"entry name {key!r} must be a user name or a uid")
    return items


def _user_key(user: str) -> str | None:
    """None if `user` is a unix user name or a uid (0..4294967294); else what is wrong."""
    if user.isascii() and user.isdigit():
        if user != str(int(user)):  # "01000" would never match uid 1000's "1000"
            return f"uid {user[:40]} has leading zeros; write it as {int(user)}"
        return None if int(user) <= MAX_UID else f"uid {user[:40]} is beyond the largest " \
                                                   f"({MAX_UID})"
    if USER_NAME.fullmatch(user):
        return None
    return (f"{user[:40]!r} is neither a user name (letters, digits, _ . -, not starting with "
            "a digit or -) nor a uid (a whole number 0 or more)")


#: the `mqtt` section's defaults, written once, on the model
_MQTT: dict[str, Any] = {f.name: f.default for f in fields(Mqtt) if f.default is not MISSING}


def _mqtt(s: Section, base: Path) -> Mqtt:
    host = s.text("host", "127.0.0.1")
    port = s.integer("port", 1883, min=1, max=65535)
    base_topic = s.text("base_topic", "hermesd", pattern=TOPIC_LEVEL,
                        what="a topic without wildcards or empty levels")
    prefix = s.text("discovery_prefix", "homeassistant", pattern=TOPIC_LEVEL,
                    what="a topic without wildcards or empty levels")
    for key, topic in (("base_topic", base_topic), ("discovery_prefix", prefix)):
        if isinstance(topic, str) and topic.startswith("$"):
            s.problem(key, f"{topic!r} begins with $: such topics are the broker's own ($SYS), "
                           "and a client's publishes there are dropped")
    role = s.text("command_role", "viewer")
    protocol = s.choice("protocol", ("5", "3.1.1"), _MQTT["protocol"])
    username = s.text("username", None)
    password_file = s.text("password_file", None)
    tls = None
    if s.raw("tls", None) is not None:
        t = s.section("tls")
        paths = {k: t.text(k, None) for k in ("ca", "cert", "key")}
        tls = MqttTls(**{k: (base / v).absolute() if v else None for k, v in paths.items()},
                      insecure=t.flag("insecure", False))
        if (tls.cert is None) != (tls.key is None):
            t.problem("cert" if tls.cert is None else "key", "cert and key go together")
        t.finish()
    mqtt = Mqtt(host=host, port=port, base_topic=base_topic, discovery_prefix=prefix,
                command_role=role, protocol=protocol, username=username,
                password_file=(base / password_file).absolute() if password_file else None,
                tls=tls, keepalive=s.duration("keepalive", _MQTT["keepalive"], min=5, max=3600),
                client_id=s.text("client_id", None), discovery=s.flag("discovery", _MQTT["discovery"]),
                outbox_limit=s.integer("outbox_limit", _MQTT["outbox_limit"], min=0, max=1_000_000),
                response_topics=_response_topics(s),
                republish=s.duration("republish", _MQTT["republish"], min=1, max=86400))
    if password_file and not username:
        s.problem("password_file", "a password needs a `username`")
    s.finish()
    return mqtt


def _response_topics(s: Section) -> tuple[str, ...] | None:
    """`mqtt.response_topics`: topic filters answers may go to; absent: any not protected."""
    if s.raw("response_topics", None) is None:
        return None
    filters = s.texts("response_topics")
    for i, pattern in enumerate(filters):
        where = f"{s.at('response_topics')}[{i}]"
        if not TOPIC_FILTER.fullmatch(pattern):
            s.problems.add(where, f"{pattern!r} is not an MQTT topic filter (`+` stands for a "
                                  "whole level, `#` only for the whole last level)")
        elif pattern.startswith("$"):
            s.problems.add(where, f"{pattern!r} is a broker topic ($...): answers never go "
                                  "there")
        elif len(pattern.encode()) > MAX_TOPIC_BYTES:
            s.problems.add(where, f"longer than {MAX_TOPIC_BYTES} bytes")
    return filters


def _inside(topic: str, namespace: str) -> bool:
    """Whether every topic `topic` matches lies in `namespace/#` (namespace has no wildcards)."""
    return topic == namespace or topic.startswith(namespace + "/")


def _mqtt_topic_clashes(mqtt: Mqtt, devices: dict[str, Device]) -> list[tuple[str, str]]:
    """Topics that would let one of hermesd's namespaces and another's meet.

    hermesd takes commands and writes from `B/...` (with `mqtt.command_role`) and Home
    Assistant's status from `<prefix>/status`, and publishes answers, states and discovery
    there. A device topic inside them would turn a device write into a command (on MQTT 3.1.1,
    which has no No-Local, hermesd even hears its own publish), a device's state into one of
    ours, or an answer into a device command; so would the two namespaces inside each other.
    Every hermesd node's `B/...` counts, not only this one's: answers and device writes must
    never reach another node's command topics either.
    """
    problems: list[tuple[str, str]] = []
    base, prefix = mqtt.base_topic, mqtt.discovery_prefix
    if _inside(base, prefix) or _inside(prefix, base):
        problems.append(("mqtt.base_topic",
                         f"{base!r} and mqtt.discovery_prefix {prefix!r} are the same or one "
                         "lies inside the other: hermesd's commands and Home Assistant's "
                         "discovery would share topics"))
    namespaces = ((base, f"inside hermesd's own MQTT topics ({base}/..., mqtt.base_topic: "
                         "every hermesd node's commands, writes, states and answers)"),
                  (prefix, f"inside the Home Assistant discovery prefix ({prefix}/..., "
                           "mqtt.discovery_prefix: discovery configs and HA's status)"))
    for i, pattern in enumerate(mqtt.response_topics or ()):
        for namespace, what in namespaces:
            if _inside(pattern, namespace):
                problems.append((f"mqtt.response_topics[{i}]",
                                 f"{pattern!r} is {what}, where answers never go (except "
                                 f"{base}/<node>/response, which needs no entry)"))
                break
    for dev in devices.values():
        if dev.driver != "mqtt":
            continue
        places = [(f"devices.{dev.id}.{key}", dev.params.get(key))
                  for key in DEVICE_TOPIC_KEYS if key in dev.params]
        for pid, point in dev.points.items():
            places += [(f"devices.{dev.id}.points.{pid}.{key}", point.params.get(key))
                       for key in DEVICE_TOPIC_KEYS if key in point.params]
        for path, topic in places:
            if not isinstance(topic, str):
                continue
            for namespace, what in namespaces:
                if _inside(topic, namespace):
                    problems.append((path, f"{topic!r} is {what}; a device topic may not be "
                                           "there"))
                    break
    problems += _commands_heard_as_states(mqtt, devices)
    return problems


def _commands_heard_as_states(mqtt: Mqtt, devices: dict[str, Device]) -> list[tuple[str, str]]:
    """A point's command topic that is another point's state or availability topic: each
    write would be a reading of that point, to hermesd and to every other subscriber ("write
    yard_trim 33" made the outdoor temperature 33 °C). Its own state topic too on MQTT 3.1.1,
    which has no No-Local: hermesd would hear its own command and take it for the device's
    confirmation (review atk20s, #8)."""
    # (topics without wildcards, as the config requires of them)
    heard: dict[str, list[tuple[str, str]]] = {}  # topic -> (point or device, key)
    for dev in devices.values():
        if dev.driver != "mqtt":
            continue
        if isinstance(topic := dev.params.get("availability_topic"), str):
            heard.setdefault(topic, []).append((dev.id, "availability_topic"))
        for pid, point in dev.points.items():
            for key in ("state_topic", "availability_topic"):
                if isinstance(topic := point.params.get(key), str):
                    heard.setdefault(topic, []).append((pid, key))
    problems: list[tuple[str, str]] = []
    for dev in devices.values():
        if dev.driver != "mqtt":
            continue
        for pid, point in dev.points.items():
            topic = point.params.get("command_topic")
            if not isinstance(topic, str):
                continue
            others = [(who, key) for who, key in heard.get(topic, ())
                      if who != pid or key != "state_topic" or mqtt.protocol == "3.1.1"]
            if others:
                who, key = others[0]
                why = ("on MQTT 3.1.1 hermesd hears its own publish, and would take its "
                       "command for the device's confirmation") if who == pid else \
                    "each write would be a reading of it, for hermesd and every subscriber"
                problems.append((f"devices.{dev.id}.points.{pid}.command_topic",
                                 f"{topic!r} is the {key} of {who}: {why}"))
    return problems



def _voice(s: Section, base: Path) -> Voice:
    voice = Voice(
        enabled=s.flag("enabled", False), input=s.text("input", "default"),
        model=s.text("model", "default"), wake_phrase=s.text("wake_phrase", "hermes"),
        role=s.text("role", "viewer"), speak=s.flag("speak", False),
        output=s.text("output", "default"),
        max_utterance=s.duration("max_utterance", 15.0, min=1, max=120),
        language=s.text("language", "auto", pattern=LANGUAGE, what="`auto` or a language code "
                        "such as en or zh"),
        model_sha256=s.text("model_sha256", None, pattern=SHA256, what="a sha256 (64 hex "
                            "digits)"),
    )
    if voice.model != "default" and not voice.model.endswith(".bin"):
        s.problem("model", f"expected `default` or a path to a ggml .bin file, got {voice.model!r}")
    elif voice.enabled and voice.model != "default" and not (base / voice.model).is_file():
        s.problem("model", f"no model file {base / voice.model}")
    if voice.model_sha256 is not None and voice.model == "default":
        s.problem("model_sha256", "the default model is pinned already; this key is for a "
                                  "model file of your own")
    s.finish()
    return voice


def _intent_value(s: Section, point: Point, value: Any) -> None:
    """A write intent's value must be one its point takes: the phrase would otherwise be
    refused every time it is said, long after the config was taken."""
    from hermesd.core.errors import HermesError
    from hermesd.policy import value_fits  # (the policy's own check: no copy of it here)

    if not point.writable:
        s.problem("point", f"{point.id} is not writable: a write intent needs a writable point")
        return
    try:
        value_fits(point, value, [])
    except HermesError as exc:
        s.problem("value", exc.message)


def _intents(top: Section, points: dict[str, Point]) -> list[Intent]:
    intents: list[Intent] = []
    seen: dict[str, str] = {}  # folded name -> name as written
    sec = top.section("intents")
    for name, raw in sec.mapping_items():
        sec.known.add(name)
        odd = unshown(name)
        if odd is not None or blank(name):
            # the name is in audit records and log lines: never in a path printed as is
            what = "shows nothing" if odd is None else \
                f"holds U+{ord(odd):04X}, {unshown_what(odd)}"
            sec.problem(None, f"intent name {name!r} {what}: words people read are shown as "
                              "written")
        else:  # two names that look alike (stop, ｓｔｏｐ) are one in an audit record
            first = seen.setdefault(folded(name), name)
            if first != name:
                sec.problem(None, f"intent name {name!r} is intent {first!r} written another "
                                  "way")
        at = sec.at(name) if odd is None else sec.at(repr(name))
        s = Section(sec.problems, at, raw)
        phrases = s.texts("phrases")
        if not phrases:
            s.problem("phrases", "is required: the phrases that trigger this intent")
        action = s.choice("action", ("read", "write", "respond"), required=True)
        point = s.text("point", None)
        value = s.raw("value", None)
        reply = s.text("reply", None)
        if action in ("read", "write") and point is None:
            s.problem("point", f"a {action} intent needs a point")
        if point is not None and point not in points:
            s.problem("point", f"unknown point id {point!r}")
        if action == "write" and value is None:
            s.problem("value", "a write intent needs a value")
        elif value is not None and not isinstance(value, bool | int | float | str):
            s.problem("value", f"is {describe(value)}: a write intent writes one value (a "
                               "number, on/off, or a choice's name)")
            value = None
        if action == "respond" and reply is None:
            s.problem("reply", "a respond intent needs a reply")
        shown_as_written(s, phrases=phrases, reply=reply)
        if action == "write" and value is not None and point in points:
            _intent_value(s, points[point], value)
        s.finish()
        intents.append(Intent(name=name, phrases=phrases, action=action, point=point,
                              value=value, reply=reply))
    return intents
