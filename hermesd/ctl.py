"""`hermesctl`: talk to a running hermesd over its control socket.

    hermesctl [--socket PATH] [--json] [--role ROLE] [--dry-run] COMMAND ...
      status | tools | points | read POINT | write POINT VALUE | ask [TEXT...] [--audio FILE]
      call TOOL.ACTION JSON | listen [--window SECONDS]

The socket is `--socket`, else `$HERMESD_SOCKET`, else `<paths.runtime_dir>/control.sock` of
/etc/hermesd/hermesd.yaml. `--json` prints exactly one JSON object. Exit status: 0 ok or stale,
10 dry run, 1 error, 65 rejected, 75 busy, 77 forbidden, 64 usage, 69 daemon unreachable.
`ask` with no text reads commands from the terminal (with history), one answer per line.
`ask --audio FILE.wav` sends the recording itself (16 kHz mono 16-bit WAV), so the daemon
needs no access to your files; the answer adds `transcript`. `listen` is push-to-talk: the
next thing said at the gateway's microphone is taken as a command, without the wake phrase.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

EX_USAGE = 64
EX_UNAVAILABLE = 69
STATUS_EXIT = {"ok": 0, "stale": 0, "dry_run": 10, "error": 1, "rejected": 65, "forbidden": 77,
               "busy": 75}
SYSTEM_CONFIG = Path("/etc/hermesd/hermesd.yaml")
DEFAULT_SOCKET = Path("/run/hermesd/control.sock")
MAX_ANSWER = 8 * 1024 * 1024
MAX_RECORDING = 6 * 1024 * 1024  # bytes of WAV: base64 of it fits the daemon's audio frame limit
LISTEN_EXTRA = 150.0  # seconds beyond the window: speech that began in it, then its answer


class Unreachable(Exception):
    pass


def socket_path(explicit: str | None) -> Path:
    if explicit:
        return Path(explicit)
    env = os.environ.get("HERMESD_SOCKET")
    if env:
        return Path(env)
    with contextlib.suppress(OSError, ValueError, ImportError, AttributeError):
        import yaml

        data = yaml.safe_load(SYSTEM_CONFIG.read_text(encoding="utf-8"))
        runtime = data.get("paths", {}).get("runtime_dir")
        if isinstance(runtime, str):
            return (SYSTEM_CONFIG.parent / runtime) / "control.sock"
    return DEFAULT_SOCKET


class Client:
    """A blocking client of the control socket: one request, one answer."""

    def __init__(self, path: Path, timeout: float = 60.0) -> None:
        self.path = path
        self.timeout = timeout
        self._sock: socket.socket | None = None
        self._buffer = b""

    def _connect(self) -> socket.socket:
        if self._sock is None:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            try:
                sock.connect(str(self.path))
            except OSError as exc:
                sock.close()
                reason = exc.strerror or str(exc)
                raise Unreachable(f"cannot connect to hermesd at {self.path}: {reason} "
                                  "(is it running? see --socket)") from None
            self._sock = sock
        return self._sock

    def request(self, obj: dict[str, Any]) -> dict[str, Any]:
        sock = self._connect()
        try:
            # compact, in insertion order: an audio ask must start '{"op":"ask","audio_wav":'
            frame = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
            sock.sendall(frame + b"\n")
            while b"\n" not in self._buffer:
                chunk = sock.recv(65536)
                if not chunk:
                    raise Unreachable("hermesd closed the connection without an answer")
                self._buffer += chunk
                if len(self._buffer) > MAX_ANSWER:
                    raise Unreachable("answer too large")
        except TimeoutError:
            raise Unreachable(f"no answer from hermesd within {self.timeout:g} s") from None
        except OSError as exc:
            raise Unreachable(f"connection to hermesd failed: {exc}") from None
        line, _, self._buffer = self._buffer.partition(b"\n")
        answer = json.loads(line)
        if not isinstance(answer, dict):
            raise Unreachable("hermesd sent something that is not an answer")
        return answer

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--socket", default=argparse.SUPPRESS, help="control socket path")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print exactly one JSON object")
    common.add_argument("--role", default=argparse.SUPPRESS, help="act with this role")
    common.add_argument("--dry-run", action="store_true", default=argparse.SUPPRESS,
                        help="show the plan and its checks; touch no device")
    common.add_argument("--timeout", type=float, default=argparse.SUPPRESS,
                        help="seconds the daemon may take")
    parser = argparse.ArgumentParser(prog="hermesctl", parents=[common],
                                     description="Talk to a running hermesd.",
                                     epilog="exit status: 0 ok/stale, 10 dry run, 1 error, "
                                            "65 rejected, 75 busy, 77 forbidden, 69 unreachable")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("status", parents=[common], help="daemon, tools, devices, LLM")
    sub.add_parser("tools", parents=[common], help="tool processes and their actions")
    sub.add_parser("points", parents=[common], help="configured points and last values")
    p = sub.add_parser("read", parents=[common], help="read a point now")
    p.add_argument("point")
    p = sub.add_parser("write", parents=[common], help="write a value to a point")
    p.add_argument("point")
    p.add_argument("value")
    p = sub.add_parser("ask", parents=[common], help="a command in plain words")
    p.add_argument("text", nargs="*")
    p.add_argument("--audio", metavar="FILE.wav", help="transcribe a recording first")
    p = sub.add_parser("listen", parents=[common],
                       help="push-to-talk: take the next thing said at the microphone")
    p.add_argument("--window", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for speech to begin (default 10)")
    p = sub.add_parser("call", parents=[common], help="call a tool action directly")
    p.add_argument("target", metavar="TOOL.ACTION")
    p.add_argument("args", metavar="JSON", nargs="?", default="{}")
    return parser


def make_request(args: argparse.Namespace) -> dict[str, Any]:
    req: dict[str, Any] = {"op": args.command}
    if getattr(args, "role", None):
        req["role"] = args.role
    if getattr(args, "dry_run", False):
        req["dry_run"] = True
    if getattr(args, "timeout", None):
        req["timeout"] = args.timeout
    if args.command == "read":
        req["point"] = args.point
    elif args.command == "write":
        req["point"], req["value"] = args.point, args.value
    elif args.command == "listen":
        req["window"] = args.window
    elif args.command == "ask":
        if args.audio:
            req = {"op": "ask", "audio_wav": _recording(args.audio),
                   **{k: v for k, v in req.items() if k != "op"}}
        else:
            req["text"] = " ".join(args.text)
    elif args.command == "call":
        tool, dot, action = args.target.partition(".")
        if not dot or not tool or not action:
            raise ValueError(f"expected TOOL.ACTION, got {args.target!r}")
        try:
            call_args = json.loads(args.args)
        except json.JSONDecodeError as exc:
            raise ValueError(f"JSON arguments are not valid JSON: {exc}") from None
        if not isinstance(call_args, dict):
            raise ValueError("JSON arguments must be an object")
        req.update(tool=tool, action=action, args=call_args)
    return req


def _recording(path: str) -> str:
    """The WAV file, base64-encoded (the daemon checks its format and says what is wrong)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORDING + 1)
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_RECORDING:
        raise ValueError(f"{path} is larger than {MAX_RECORDING // (1024 * 1024)} MB; a spoken "
                         "command is a few seconds of 16 kHz mono audio")
    return base64.b64encode(data).decode("ascii")


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    as_json = getattr(args, "json", False)
    path = socket_path(getattr(args, "socket", None))
    timeout = getattr(args, "timeout", None)
    wait = (timeout or 60.0) + 5.0
    if args.command == "listen":
        wait = max(wait, args.window + LISTEN_EXTRA)
    client = Client(path, timeout=wait)
    try:
        if args.command == "ask" and not args.text and not args.audio:
            sys.exit(interactive(client, args, as_json))
        try:
            req = make_request(args)
        except ValueError as exc:
            print(f"hermesctl: {exc}", file=sys.stderr)
            sys.exit(EX_USAGE)
        try:
            answer = client.request(req)
        except Unreachable as exc:
            if as_json:
                print(json.dumps(_unreachable(str(exc))))
            else:
                print(f"hermesctl: {exc}", file=sys.stderr)
            sys.exit(EX_UNAVAILABLE)
        print_answer(args.command, answer, as_json)
        sys.exit(STATUS_EXIT.get(str(answer.get("status")), 1))
    finally:
        client.close()


def _unreachable(message: str) -> dict[str, Any]:
    return {"status": "error", "route": "direct", "action": None, "result": None,
            "error": {"code": "TOOL_UNAVAILABLE", "message": message}, "reply": message,
            "trace_id": "", "timings_ms": {}}


def interactive(client: Client, args: argparse.Namespace, as_json: bool) -> int:
    """A prompt for a technician: one command per line, one answer per line."""
    tty = sys.stdin.isatty()
    history = Path.home() / ".hermesctl_history"
    if tty:
        with contextlib.suppress(ImportError, OSError):
            import readline

            readline.read_history_file(history)
    worst = 0
    try:
        while True:
            try:
                line = input("hermes> " if tty else "")
            except EOFError:
                break
            text = line.strip()
            if not text:
                continue
            if text in ("quit", "exit"):
                break
            args.text = [text]
            try:
                answer = client.request(make_request(args))
            except Unreachable as exc:
                print(f"hermesctl: {exc}", file=sys.stderr)
                return EX_UNAVAILABLE
            print_answer("ask", answer, as_json)
            worst = max(worst, STATUS_EXIT.get(str(answer.get("status")), 1))
    finally:
        if tty:
            with contextlib.suppress(ImportError, OSError):
                import readline

                readline.write_history_file(history)
    return worst


def print_answer(command: str, answer: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(answer, ensure_ascii=False))
        return
    status = answer.get("status")
    if command == "status" and status == "ok":
        print(format_status(answer.get("result") or {}))
        return
    if command == "points" and status == "ok":
        print(format_points((answer.get("result") or {}).get("points", [])))
        return
    if command == "tools" and status == "ok":
        print(format_tools((answer.get("result") or {}).get("tools", {})))
        return
    reply = answer.get("reply") or ""
    if "transcript" in answer:
        print(f"heard: {answer['transcript']!r}", file=sys.stderr)
    if status in ("ok", "stale", "dry_run"):
        if command == "call" and status == "ok":
            print(json.dumps((answer.get("result") or {}).get("value"), ensure_ascii=False,
                             indent=2))
        else:
            print(reply)
        for check in answer.get("checks") or []:
            if status == "dry_run":
                print(f"  ✓ {check}")
    else:
        error = answer.get("error") or {}
        print(f"{status}: {error.get('code', '?')}: {error.get('message') or reply}",
              file=sys.stderr)


def format_status(s: dict[str, Any]) -> str:
    lines = [f"hermesd {s.get('version')} on {s.get('node', {}).get('name')} — {s.get('state')}, "
             f"up {s.get('uptime_s')} s, pid {s.get('pid')}",
             f"config {s.get('config')}  ({s.get('points')} points)",
             f"llm: {s.get('llm', {}).get('state')}"]
    lines.append("tools:")
    for name, t in (s.get("tools") or {}).items():
        extra = f", last: {t['last_error']}" if t.get("last_error") else ""
        lines.append(f"  {name:10} {t['state']:10} pid {t.get('pid')}  restarts "
                     f"{t['restarts']}{extra}")
    lines.append("devices:")
    for name, d in (s.get("devices") or {}).items():
        state = {True: "online", False: "OFFLINE", None: "unknown"}[d.get("online")]
        reason = f" ({d['reason']})" if d.get("reason") else ""
        lines.append(f"  {name:10} {d['driver']:7} {state}{reason}")
    voice = s.get("voice")
    if isinstance(voice, dict):
        problem = f" ({voice['input_error']})" if voice.get("input_error") else ""
        lines.append(f"voice: {voice.get('state')}{problem}, {voice.get('input')}, wake phrase "
                     f"{voice.get('wake_phrase')!r}, role {voice.get('role')}")
        for heard in (voice.get("recent") or [])[-3:]:
            said = heard.get("transcript", "")
            lines.append(f"  {heard.get('at', '')[11:19]} {heard.get('outcome'):9} {said!r}"
                         + (f" -> {heard['reply']}" if heard.get("reply") else ""))
    return "\n".join(lines)


def format_points(points: list[dict[str, Any]]) -> str:
    lines = [f"{'point':22} {'value':>16}  {'age':>7}  {'quality':7}  name"]
    for p in points:
        age = "" if p.get("age_s") is None else f"{p['age_s']:.0f}s"
        rw = " (writable)" if p.get("writable") else ""
        lines.append(f"{p['id']:22} {p.get('shown') or '—':>16}  {age:>7}  "
                     f"{p.get('quality'):7}  {p.get('name')}{rw}")
    return "\n".join(lines)


def format_tools(tools: dict[str, Any]) -> str:
    lines = []
    for name, t in tools.items():
        lines.append(f"{name:10} {t['state']:10} pid {t.get('pid')}  restarts {t['restarts']}  "
                     f"actions: {', '.join(t.get('actions') or [])}")
    return "\n".join(lines) or "no tools"


if __name__ == "__main__":
    main()
