"""Voice benchmark: transcription speed, end-to-end latency, memory and accuracy, each with a baseline.

    .venv/bin/python scripts/bench/voice.py [--repeat N]

Needs the prepared model (scripts/models), espeak-ng and sox. Everything runs for real: a
hermesd with the dev plant on fake device tools, the whisper tool, speech from espeak-ng.
  1. real-time factor (decode time / audio time) of 2 s, 5 s and 10 s utterances through the
     whisper tool; baseline: the same clips decoded in this process (no IPC, no daemon);
  2. end of speech -> answer for rule-routed commands, with speech written into the daemon's
     FIFO at real-time pace; baseline: the same words typed (`ask`) on the control socket;
  3. resident memory of the whisper tool; baseline: a device tool and the daemon itself;
  4. word accuracy (1 - WER) and command accuracy (the action the rules pick from the
     transcript) over the spoken test set, with the plant's vocabulary prompt (as deployed);
     baseline: the same model without the prompt.
The machine is shared: figures are medians, the load average is printed, compare ratios.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from hermes_tools.whisper.model import WhisperModel  # noqa: E402

from hermesd.config import load_config  # noqa: E402
from hermesd.core.model_files import default_whisper as default_model  # noqa: E402
from hermesd.core.vad import FRAME_S, Vad  # noqa: E402
from hermesd.core.wav import read_wav  # noqa: E402
from hermesd.router.rules import RuleRouter  # noqa: E402
from hermesd.voice.prompt import vocabulary_prompt  # noqa: E402
from hermesd.voice.wake import match_wake  # noqa: E402
from tests.support import procfs  # noqa: E402
from tests.support.daemon import DaemonRunner, RunningDaemon  # noqa: E402
from tests.voice.plant import plant_config  # noqa: E402
from tests.voice.speech import COMMANDS, Speech, duration  # noqa: E402

#: more English commands of the dev plant (shared/data/commands-dev.jsonl), with their actions
MORE: list[tuple[str, str, str, object]] = [
    ("how hot is boiler 2 right now", "read", "boiler2_temp", None),
    ("tank level", "read", "tank_level", None),
    ("packaging counter", "read", "line_a_count", None),
    ("what speed is feed pump 1 running at", "read", "pump1_speed", None),
    ("is there an alarm in the boiler house", "read", "alarm_active", None),
    ("weight on the scale", "read", "scale1_weight", None),
    ("is the yard beacon on", "read", "warning_beacon", None),
    ("what is the boiler 3 setpoint", "read", "boiler3_setpoint", None),
    ("conveyor speed on line A", "read", "conveyor_speed", None),
    ("slow pump one down to 800", "write", "pump1_speed", 800),
    ("stop feed pump 1", "write", "pump1_speed", 0),
    ("set the line A conveyor to 30 metres per minute", "write", "conveyor_speed", 30),
    ("close valve 2", "write", "valve2_open", False),
    ("turn on the warning beacon in the yard", "write", "warning_beacon", True),
]
LENGTHS = {
    2.0: "Hermes, tank level.",
    5.0: "Hermes, what is the temperature of boiler 3, and the boiler 3 pressure?",
    10.0: "Hermes, what is the temperature of boiler 3, and what is the pressure of boiler 3, "
          "and how full is the feed water tank, and is pump 1 running?",
}
E2E = ["what is the temperature of boiler 3", "how full is the feed water tank",
       "is steam valve 2 open", "open steam valve 2", "set feed pump 1 to 1000 rpm"]
NUMBERS = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
           "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10"}


def words(text: str) -> list[str]:
    text = re.sub(r"(\d),(\d{3})", r"\1\2", text.lower())
    return [NUMBERS.get(w, w) for w in re.findall(r"[a-z0-9]+", text)]


def wer(ref: list[str], hyp: list[str]) -> tuple[int, int]:
    """(substitutions + deletions + insertions, reference length): Levenshtein over words."""
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (r != h))
    return row[len(hyp)], len(ref)


def samples(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768


def exact_length(speech: Speech, text: str, seconds: float, name: str) -> Path:
    said = speech.say(text)
    out = speech.dir / name
    pad = max(0.0, seconds - duration(said))
    subprocess.run(["sox", str(said), str(out), "pad", "0", f"{pad:.3f}", "trim", "0",
                    str(seconds)], check=True, timeout=60)
    return out


def rss_kb(pid: int) -> tuple[int, int]:
    """Resident now and at its peak, in KiB."""
    return (procfs.rss_bytes(pid) or 0) // 1024, (procfs.peak_rss_bytes(pid) or 0) // 1024


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per clip (median)")
    parser.add_argument("--parts", default="1234", help="which sections to run (e.g. 24)")
    args = parser.parse_args()
    model_path = default_model()
    if model_path is None:
        print("the whisper model is not prepared: run scripts/models", file=sys.stderr)
        return 1
    print(f"voice benchmark: {model_path.name}, {os.cpu_count()} cores, load average {load()}")
    work = Path(tempfile.mkdtemp(prefix="hermesd-bench-voice-"))
    runner = DaemonRunner(work)
    try:
        speech = Speech(work / "speech")
        fifo = work / "mic.fifo"
        os.mkfifo(fifo)
        d = runner.start(plant_config({"enabled": True, "input": str(fifo), "role": "operator"}))
        d.running_tool_pid("whisper")
        config = load_config(d.config_path)
        prompt = vocabulary_prompt(config)
        model = WhisperModel.load(model_path, None, min(4, os.cpu_count() or 1))
        try:
            if "1" in args.parts:
                rtf(d, speech, model, prompt, args.repeat)
            if "2" in args.parts:
                end_to_end(d, speech, fifo)
            if "3" in args.parts:
                memory(d)
            if "4" in args.parts:
                accuracy(speech, model, prompt, config)
        finally:
            model.close()
        d.terminate()
    finally:
        runner.cleanup()
        shutil.rmtree(work, ignore_errors=True)
    print(f"load average at the end: {load()}")
    return 0


def rtf(d: RunningDaemon, speech: Speech, model: WhisperModel, prompt: str, repeat: int) -> None:
    print("\n1. real-time factor (decode / audio; target <= 0.5), median of", repeat)
    print(f"   {'clip':>5}  {'tool decode':>11}  {'tool RTF':>8}  {'round trip':>10}  "
          f"{'in-process':>10}  {'RTF':>5}  ratio")
    for seconds, text in LENGTHS.items():
        clip = exact_length(speech, text, seconds, f"clip{seconds:g}.wav")
        # through the daemon as `hermesctl ask --audio` sends it: the whisper tool is hermesd's
        # own worker, which `call` does not reach (README, Roles); the round trip includes the
        # ask's routing, well under a millisecond
        wav = base64.b64encode(clip.read_bytes()).decode("ascii")
        decode, trip, local = [], [], []
        for _ in range(repeat):
            started = time.perf_counter()
            answer = d.request({"op": "ask", "audio_wav": wav, "dry_run": True}, timeout=120)
            trip.append((time.perf_counter() - started) * 1000)
            decode.append(answer["transcription"]["decode_ms"])
            started = time.perf_counter()
            model.transcribe(samples(clip), "en", prompt, threading.Event())
            local.append((time.perf_counter() - started) * 1000)
        dm, tm, lm = (statistics.median(x) for x in (decode, trip, local))
        print(f"   {seconds:4.0f}s  {dm:9.0f}ms  {dm / seconds / 1000:8.3f}  {tm:8.0f}ms  "
              f"{lm:8.0f}ms  {lm / seconds / 1000:5.3f}  {tm / lm:5.2f}")


def end_to_end(d: RunningDaemon, speech: Speech, fifo: Path) -> None:
    print("\n2. end of speech -> answer, rule-routed commands (speech paced in real time)")
    print(f"   {'command':38} {'e2e':>7} {'of it: transcribe':>17} {'rules+act':>9}  "
          f"{'typed ask':>9}  ratio")
    gap = speech.silence(0.5)
    tail = speech.silence(2.0)
    rows = []
    for text in E2E:
        said = speech.say(f"Hermes, {text}.")
        clip = speech.join([gap, said, tail], f"e2e-{len(rows)}.wav")
        before = len(d.status()["voice"]["recent"])
        speech_end = _write_paced(fifo, clip, _last_voice(clip))
        entry = d.wait_until(lambda b=before: (r := d.status()["voice"]["recent"])[b:] and r[b],
                             timeout=120, what="the answer")
        answered = _epoch(entry["at"])
        e2e = (answered - speech_end) * 1000
        t = entry.get("timings_ms", {})
        started = time.perf_counter()
        typed = d.request({"op": "ask", "text": text, "role": "operator", "dry_run": True})
        typed_ms = (time.perf_counter() - started) * 1000
        assert typed["status"] in ("ok", "dry_run", "stale"), typed
        acted = t.get("total", 0.0) - t.get("transcribe", 0.0)
        rows.append(e2e)
        print(f"   {text:38} {e2e:5.0f}ms {t.get('transcribe', 0):15.0f}ms {acted:7.1f}ms  "
              f"{typed_ms:7.1f}ms  {e2e / typed_ms:5.0f}x  [{entry['outcome']}]")
    print(f"   median {statistics.median(rows):.0f} ms (includes the VAD's 750 ms hangover, "
          "which is how the end of speech is known)")


def _last_voice(clip: Path) -> float:
    """Seconds into the clip where the last voiced frame ends (espeak-ng adds silence)."""
    vad = Vad()
    pcm = read_wav(clip.read_bytes())
    cut = [*vad.feed(pcm), *vad.flush()]
    return cut[-1].end_s - vad.s.tail_frames * FRAME_S


def _write_paced(fifo: Path, clip: Path, speech_end_s: float) -> float:
    """Write the WAV into the FIFO at real-time pace; returns the wall time speech ended."""
    data = clip.read_bytes()
    header, pcm = data[:44], data[44:]
    chunk = 3200  # 100 ms
    with fifo.open("wb") as f:
        f.write(header)
        started = time.monotonic()
        wall0 = time.time()
        for i in range(0, len(pcm), chunk):
            due = started + i / 32000
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            f.write(pcm[i:i + chunk])
            f.flush()
    return wall0 + speech_end_s


def _epoch(iso: str) -> float:
    import calendar

    stamp, ms = iso.rstrip("Z").split(".")
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%S")) + int(ms) / 1000


def memory(d: RunningDaemon) -> None:
    tools = d.status()["tools"]
    whisper, device = rss_kb(tools["whisper"]["pid"]), rss_kb(tools["plc1"]["pid"])
    daemon = rss_kb(d.proc.pid)
    print("\n3. resident memory (RSS now / peak)")
    print(f"   whisper tool   {whisper[0] / 1024:6.1f} MB / {whisper[1] / 1024:6.1f} MB")
    print(f"   a device tool  {device[0] / 1024:6.1f} MB / {device[1] / 1024:6.1f} MB   "
          f"(whisper is {whisper[1] / device[1]:.1f}x)")
    print(f"   the daemon     {daemon[0] / 1024:6.1f} MB / {daemon[1] / 1024:6.1f} MB   "
          "(voice loop included)")


def accuracy(speech: Speech, model: WhisperModel, prompt: str, config: Any) -> None:
    tests = [*COMMANDS, *MORE]
    router = RuleRouter(list(config.points.values()), config.intents)
    print(f"\n4. accuracy over {len(tests)} spoken commands of the dev plant (espeak-ng voice)")
    results = {}
    for label, use in (("with the plant's prompt", prompt), ("no prompt (baseline)", "")):
        errors = total = right = woke = 0
        decode = []
        for text, action, point, value in tests:
            ref = f"Hermes, {text}."
            started = time.perf_counter()
            heard = model.transcribe(samples(speech.say(ref)), "en", use, threading.Event()).text
            decode.append(time.perf_counter() - started)
            e, n = wer(words(ref), words(heard))
            errors, total = errors + e, total + n
            wake = match_wake(heard, "hermes")
            woke += wake is not None
            placed = router.place(wake.command) if wake is not None else None
            got = placed.action if placed is not None else None
            if got is not None and got.name == action and got.args.get("point") == point and \
                    (value is None or got.args.get("value") == value):
                right += 1
        results[label] = (1 - errors / total, right, woke, statistics.median(decode))
    for label, (acc, right, woke, dec) in results.items():
        print(f"   {label:26} word accuracy {acc:.3f}   wake phrase heard {woke}/{len(tests)}"
              f"   right action {right}/{len(tests)}   median decode {dec * 1000:.0f} ms")


if __name__ == "__main__":
    sys.exit(main())
