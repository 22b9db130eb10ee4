"""Real audio for tests: speech synthesised by espeak-ng and resampled by sox, silence and noise.

Every file is 16 kHz mono 16-bit unless a test asks otherwise; files are cached by content in
the directory given, so a session synthesises each sentence once.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

#: commands of the dev plant (shared/data/commands-dev.jsonl) and what each must lead to:
#: (text, action, point, value); value None for reads
COMMANDS: list[tuple[str, str, str, object]] = [
    ("what is the temperature of boiler 3", "read", "boiler3_temp", None),
    ("read boiler one temperature", "read", "boiler1_temp", None),
    ("show me the pressure in boiler three", "read", "boiler3_pressure", None),
    ("how full is the feed water tank", "read", "tank_level", None),
    ("what is the line A bottle count", "read", "line_a_count", None),
    ("is pump 1 running", "read", "pump1_running", None),
    ("is steam valve 2 open", "read", "valve2_open", None),
    ("what is the weight on the scale", "read", "scale1_weight", None),
    ("what is the outdoor temperature", "read", "outdoor_temp", None),
    ("set feed pump 1 to 1000 rpm", "write", "pump1_speed", 1000),
    ("open steam valve 2", "write", "valve2_open", True),
    ("switch the beacon off", "write", "warning_beacon", False),
    ("change the boiler 3 setpoint to 510 degrees", "write", "boiler3_setpoint", 510),
]


class Speech:
    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)

    def _path(self, *key: object) -> Path:
        digest = hashlib.sha256(repr(key).encode()).hexdigest()[:16]
        return self.dir / f"{digest}.wav"

    def say(self, text: str, *, voice: str = "en", speed: int = 150, rate: int = 16000,
            channels: int = 1, bits: int = 16) -> Path:
        """`text` spoken by espeak-ng, converted by sox to the format asked for."""
        out = self._path("say", text, voice, speed, rate, channels, bits)
        if not out.exists():
            raw = out.with_suffix(".espeak.wav")
            subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(raw), "--stdin"],
                           input=text.encode(), check=True, timeout=30)
            subprocess.run(["sox", "-R", str(raw), "-r", str(rate), "-c", str(channels), "-b", str(bits),
                            str(out)], check=True, timeout=30)
            raw.unlink()
        return out

    def espeak_raw(self, text: str) -> Path:
        """espeak-ng's own output: 22050 Hz mono (the wrong rate for whisper)."""
        out = self._path("raw", text)
        if not out.exists():
            subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(out), "--stdin"],
                           input=text.encode(), check=True, timeout=30)
        return out

    def silence(self, seconds: float) -> Path:
        out = self._path("silence", seconds)
        if not out.exists():
            subprocess.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", str(out), "trim",
                            "0", str(seconds)], check=True, timeout=30)
        return out

    def noise(self, kind: str, seconds: float, volume: float = 0.3) -> Path:
        """sox noise (whitenoise, pinknoise, brownnoise) or a 50 Hz hum ("hum")."""
        out = self._path("noise", kind, seconds, volume)
        if not out.exists():
            synth = ["sine", "50"] if kind == "hum" else [kind]
            subprocess.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", str(out), "synth",
                            str(seconds), *synth, "vol", str(volume)], check=True, timeout=30)
        return out

    def join(self, parts: list[Path], name: str) -> Path:
        """The parts one after another, as one WAV file."""
        out = self.dir / name
        subprocess.run(["sox", "-R", *map(str, parts), str(out)], check=True, timeout=60)
        return out

    def mix(self, a: Path, b: Path, name: str) -> Path:
        out = self.dir / name
        subprocess.run(["sox", "-R", "-m", str(a), str(b), str(out)], check=True, timeout=60)
        return out


def duration(path: Path) -> float:
    done = subprocess.run(["soxi", "-D", str(path)], capture_output=True, text=True, check=True,
                          timeout=10)
    return float(done.stdout)
