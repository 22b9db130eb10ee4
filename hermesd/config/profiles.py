"""Device profiles: a Modbus register map written once per device model, used by many units.

A device names one with `profile: <name>` (and its own `unit:`, link keys and poll interval);
the profile's points become the device's, with ids `<device>_<key>` and names "<device> <name>",
so two meters of one model never clash. A key of the device's own `points` that names a profile
point changes that point (`scale`, `max_age`, `writable`...); any other key is a point of its
own. Profiles are looked up by name in `paths.profiles` (the user's directories, first) and
then in the ones shipped with hermesd (`configs/profiles/`). A profile file is validated as
strictly as the config: unknown keys are errors, nothing is dropped. This module only reads
files; it never touches a device.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from hermesd.config import strict_yaml
from hermesd.config.reader import Problems, Section, describe

#: the profiles shipped with hermesd (a link to the repository's configs/profiles/, installed
#: with the package)
SHIPPED = Path(__file__).resolve().parent / "profiles"
NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
#: device keys a profile may set for its model (what its registers look like); a device's own
#: value wins. Link keys (baud rate, parity) are the installation's, never the profile's.
DEVICE_KEYS = ("word_order", "byte_order", "max_block", "max_gap", "single_write")
ABOUT_KEYS = ("name", "manufacturer", "model", "source", "notes")
MAX_FILE = 1024 * 1024  # bytes: a register map, not a data dump


@dataclass(frozen=True)
class Profile:
    name: str
    path: Path
    about: Mapping[str, str]  # name, manufacturer, model, source (the manual it follows), notes
    device: Mapping[str, Any]  # defaults for DEVICE_KEYS
    points: Mapping[str, Mapping[str, Any]]  # raw point mappings, as in a config's `points`


class ProfileError(Exception):
    """A profile that cannot be used; the message names the file and every problem."""


def search_dirs(user_dirs: Sequence[Path]) -> list[Path]:
    return [*user_dirs, SHIPPED]


def available(dirs: Sequence[Path]) -> list[str]:
    names: set[str] = set()
    for folder in dirs:
        if folder.is_dir():
            names.update(p.stem for p in folder.glob("*.yaml") if NAME.fullmatch(p.stem))
    return sorted(names)


def find(name: str, dirs: Sequence[Path]) -> Path | None:
    """The first `<name>.yaml` in `dirs` (the user's directories come before the shipped one)."""
    if not NAME.fullmatch(name):
        return None
    for folder in dirs:
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    return None


def load(name: Any, dirs: Sequence[Path]) -> Profile:
    """The profile called `name`; ProfileError says why not (unknown name, bad file)."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ProfileError(f"expected a profile name (lower-case letters, digits, _ and -), got "
                           f"{describe(name)}")
    path = find(name, dirs)
    if path is None:
        known = available(dirs)
        near = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
        hint = f"; did you mean {near[0]!r}?" if near else f"; profiles: {', '.join(known)}"
        where = ", ".join(str(d) for d in dirs)
        raise ProfileError(f"no profile {name!r} in {where}{hint}")
    try:
        if path.stat().st_size > MAX_FILE:
            raise ProfileError(f"{path}: larger than {MAX_FILE} bytes")
        data = strict_yaml.load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"cannot read {path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ProfileError(f"{path}: YAML syntax error{where}: "
                           f"{getattr(exc, 'problem', None) or exc}") from None
    return _validate(name, path, data)


def _validate(name: str, path: Path, data: Any) -> Profile:
    problems = Problems()
    top = Section(problems, "", data, known=("profile", "device", "points"))
    about_s = top.section("profile", required=True)
    about = {key: about_s.text(key, None) for key in ABOUT_KEYS}
    for key in ("name", "source"):
        if about[key] is None and about_s.ok:
            about_s.problem(key, "is required (what the device is, and which published "
                                 "document its register map follows)")
    about_s.finish()
    device_s = top.section("device")
    device = {key: device_s.raw(key) for key in DEVICE_KEYS if device_s.has(key)}
    device_s.finish()
    points: dict[str, Mapping[str, Any]] = {}
    pts = top.section("points", required=True)
    for key, raw in pts.mapping_items():
        pts.known.add(key)
        if not isinstance(raw, Mapping):
            pts.problem(key, f"expected a point (a mapping), got {describe(raw)}")
        elif not re.fullmatch(r"[a-z0-9][a-z0-9_]*", key):
            pts.problem(key, "a profile point key holds lower-case letters, digits and _ only")
        else:
            points[key] = raw
    if pts.ok and not points and not problems.items:
        pts.problem(None, "a profile needs at least one point")
    top.finish()
    if problems.items:
        raise ProfileError(f"{path}: " + "; ".join(f"{p}: {m}" for p, m in problems.items))
    return Profile(name=name, path=path,
                   about={k: v for k, v in about.items() if v is not None},
                   device=device, points=points)


def label(device_id: str) -> str:
    """How a device id reads in a point's name: `meter_3` -> "meter 3"."""
    return device_id.replace("_", " ").replace("-", " ")


def expand(profile: Profile, device_id: str, own: Mapping[str, Any]) \
        -> list[tuple[str, str, Any]]:
    """The device's points as (point id, dotted path of its entry, raw mapping): the profile's,
    changed by the device's entries of the same key, then the device's other entries."""
    out: list[tuple[str, str, Any]] = []
    base = f"devices.{device_id}"
    for key, raw in profile.points.items():
        point = dict(raw)
        point["name"] = f"{label(device_id)} {raw.get('name', key.replace('_', ' '))}"
        aliases = raw.get("aliases")
        if isinstance(aliases, list):
            point["aliases"] = [f"{label(device_id)} {a}" if isinstance(a, str) else a
                                for a in aliases]
        change = own.get(key)
        if key in own and not isinstance(change, Mapping):
            out.append((f"{device_id}_{key}", f"{base}.points.{key}", change))  # named as wrong
        elif isinstance(change, Mapping):
            point.update(change)
            out.append((f"{device_id}_{key}", f"{base}.points.{key}", point))
        else:
            out.append((f"{device_id}_{key}", f"{base}.profile.{key}", point))
    out.extend((key, f"{base}.points.{key}", raw) for key, raw in own.items()
               if key not in profile.points)
    return out
