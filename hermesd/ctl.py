"""`hermesctl`: talk to a running hermesd over its control socket.

    hermesctl [--socket PATH] [--json] [--role ROLE] [--dry-run] COMMAND ...
      status | tools | points | read POINT [POINT...] | write POINT VALUE
      ask [TEXT...] [--audio FILE] | call TOOL.ACTION JSON | listen [--window SECONDS]
      scan DEVICE [--units 1-247] [--registers TABLE:A-B ...] (see ctl_scan)
      history POINT [--since 2h | --from T [--to T]] [--stat S] [--csv]
      alarms [--active] | ack ID

The socket is `--socket`, else `$HERMESD_SOCKET`, else `<paths.runtime_dir>/control.sock` of
/etc/hermesd/hermesd.yaml. `--json` prints exactly one JSON object. Exit status: 0 ok or stale,
10 dry run, 1 error, 65 rejected, 75 busy, 77 forbidden, 64 usage (including arguments that are
not UTF-8 text), 69 daemon unreachable (a full connection queue is waited out within the
timeout), 74 the answer could not be written out (stdout full,
gone or failing: the request was still carried out), 76 an answer hermesctl cannot read,
130 interrupted. No input, from the command line, the terminal or the daemon, and no output
that cannot be written, ends in a traceback. A reader that stops reading (`| head`) is no
failure: the exit status stays the answer's.
`ask` with no text reads commands from the terminal (with history), one answer per line.
`ask --audio FILE.wav` sends the recording itself (16 kHz mono 16-bit WAV), so the daemon
needs no access to your files; the answer adds `transcript`. `listen` is push-to-talk: the
next thing said at the gateway's microphone is taken as a command, without the wake phrase.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import errno
import functools
import json
import math
import os
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from hermesd import ctl_scan
from hermesd.answer import STATUS_EXIT, failure
from hermesd.control.bounds import MAX_LISTEN_WINDOW, MAX_RECORDING, MAX_TIMEOUT
from hermesd.control.client import BadAnswer, Client, Unreachable, Unsendable, shown
from hermesd.core import strict_json
from hermesd.core.errors import ErrorCode, ProtocolError
from hermesd.history.terminal import (
    CSV_BUCKETS,
    SPARK_BUCKETS,
    alarms_text,
    history_csv,
    history_text,
)

EX_USAGE = 64
EX_UNAVAILABLE = 69
EX_IOERR = 74  # the answer could not be written to stdout (a full disk, an I/O error)
EX_PROTOCOL = 76  # the daemon's answer is not one hermesctl can read
EX_INTERRUPTED = 130
SYSTEM_CONFIG = Path("/etc/hermesd/hermesd.yaml")
DEFAULT_SOCKET = Path("/run/hermesd/control.sock")
LISTEN_EXTRA = 150.0  # seconds beyond the window: speech that began in it, then its answer


class Usage(ValueError):
    """A command line (or prompt line) that cannot be sent."""


def utf8(value: str, what: str) -> str:
    """`value` if it is UTF-8 text; a usage error naming it if not (argv and stdin keep bytes
    that are not UTF-8 as lone surrogates, which hermesd refuses as not Unicode)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Usage(f"{what} is not UTF-8 text: '{shown(value)}'; hermesd takes UTF-8 "
                    "only") from None
    return value


def socket_path(explicit: str | None) -> Path:
    if explicit:
        return Path(explicit)
    env = os.environ.get("HERMESD_SOCKET")
    if env:
        return Path(env)
    with contextlib.suppress(Exception):  # an unreadable system config: the default socket
        import yaml

        data = yaml.safe_load(SYSTEM_CONFIG.read_text(encoding="utf-8"))
        runtime = data.get("paths", {}).get("runtime_dir")
        if isinstance(runtime, str):
            return (SYSTEM_CONFIG.parent / runtime) / "control.sock"
    return DEFAULT_SOCKET


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error exits 64 (EX_USAGE) as documented, not argparse's 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EX_USAGE, f"{self.prog}: error: {shown(message)}\n")


def _seconds(limit: float) -> Any:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)!r} is not a number of seconds") \
                from None
        if not math.isfinite(value) or not 0 < value <= limit:
            raise argparse.ArgumentTypeError(f"{shown(text)!r} is not in (0, {limit:g}] seconds")
        return value
    return parse


def build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--socket", default=argparse.SUPPRESS, help="control socket path")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print exactly one JSON object")
    common.add_argument("--role", default=argparse.SUPPRESS, help="act with this role")
    common.add_argument("--dry-run", action="store_true", default=argparse.SUPPRESS,
                        help="show the plan and its checks; touch no device")
    common.add_argument("--timeout", type=_seconds(MAX_TIMEOUT), default=argparse.SUPPRESS,
                        help=f"seconds the daemon may take (at most {MAX_TIMEOUT:g})")
    parser = _Parser(prog="hermesctl", parents=[common], description="Talk to a running hermesd.",
                     epilog="exit status: 0 ok/stale, 10 dry run, 1 error, 65 rejected, "
                            "75 busy, 77 forbidden, 64 usage, 69 unreachable, "
                            "74 answer not written (stdout failed), 76 unreadable answer")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("status", parents=[common], help="daemon, tools, devices, LLM")
    sub.add_parser("tools", parents=[common], help="tool processes and their actions")
    sub.add_parser("points", parents=[common], help="configured points and last values")
    p = sub.add_parser("read", parents=[common], help="read a point (or several) now")
    p.add_argument("point", nargs="+")
    p = sub.add_parser("write", parents=[common], help="write a value to a point")
    p.add_argument("point")
    p.add_argument("value")
    p = sub.add_parser("ask", parents=[common], help="a command in plain words")
    p.add_argument("text", nargs="*")
    p.add_argument("--audio", metavar="FILE.wav", help="transcribe a recording first")
    p = sub.add_parser("listen", parents=[common],
                       help="push-to-talk: take the next thing said at the microphone")
    p.add_argument("--window", type=_seconds(MAX_LISTEN_WINDOW), default=10.0, metavar="SECONDS",
                   help=f"how long to wait for speech to begin (default 10, at most "
                        f"{MAX_LISTEN_WINDOW:g})")
    p = sub.add_parser("call", parents=[common], help="call a tool action directly")
    p.add_argument("target", metavar="TOOL.ACTION")
    p.add_argument("args", metavar="JSON", nargs="?", default="{}")
    ctl_scan.add_parser(sub, common, _seconds)
    p = sub.add_parser("history", parents=[common], help="a point's past: a stat, a sparkline")
    p.add_argument("point")
    p.add_argument("--since", default="24h", help="how far back (30m, 2h, 7d); default 24h")
    p.add_argument("--from", dest="start", help="start time (ISO 8601; local if no offset)")
    p.add_argument("--to", dest="end", help="end time (ISO 8601), default now")
    p.add_argument("--stat", help="min|max|mean|last|changed_at|on_time|at")
    p.add_argument("--csv", action="store_true", help="the series as CSV, for export")
    p = sub.add_parser("alarms", parents=[common], help="alarms, newest first")
    p.add_argument("--active", action="store_true", help="only those not cleared")
    p = sub.add_parser("ack", parents=[common], help="acknowledge an alarm")
    p.add_argument("alarm", metavar="ID")
    return parser


def make_request(args: argparse.Namespace) -> dict[str, Any]:
    """The request a command line asks for; Usage if it cannot be one."""
    req: dict[str, Any] = {"op": "call" if args.command == "scan" else args.command}
    if getattr(args, "role", None):
        req["role"] = utf8(args.role, "--role")
    if getattr(args, "dry_run", False):
        req["dry_run"] = True
    if getattr(args, "timeout", None):
        req["timeout"] = args.timeout
    if args.command == "read":
        points = [utf8(point, "POINT") for point in args.point]
        if len(points) == 1:
            req["point"] = points[0]
        else:
            req["points"] = points
    elif args.command == "write":
        req["point"], req["value"] = utf8(args.point, "POINT"), utf8(args.value, "VALUE")
    elif args.command == "listen":
        req["window"] = args.window
    elif args.command == "ask":
        if args.audio:
            req = {"op": "ask", "audio_wav": _recording(args.audio),
                   **{k: v for k, v in req.items() if k != "op"}}
        else:
            req["text"] = utf8(" ".join(args.text), "TEXT")
    elif args.command == "call":
        target = utf8(args.target, "TOOL.ACTION")
        tool, dot, action = target.partition(".")
        if not dot or not tool or not action:
            raise Usage(f"expected TOOL.ACTION, got {target!r}")
        try:
            call_args = strict_json.loads(utf8(args.args, "JSON"))
        except ProtocolError as exc:
            raise Usage(f"JSON arguments are not valid JSON: {exc}") from None
        if not isinstance(call_args, dict):
            raise Usage("JSON arguments must be an object")
        req.update(tool=tool, action=action, args=call_args)
    elif args.command == "scan":
        utf8(args.device, "DEVICE")
        try:
            req.update(ctl_scan.scan_call(args))
        except ValueError as exc:
            raise Usage(str(exc)) from None
        req["timeout"] = ctl_scan.request_timeout(args)
    elif args.command == "history":
        req["point"] = utf8(args.point, "POINT")
        if args.start:
            req["from"] = utf8(args.start, "--from")
        else:
            req["since"] = utf8(args.since, "--since")
        if args.end:
            req["to"] = utf8(args.end, "--to")
        if args.stat:
            req["stat"] = utf8(args.stat, "--stat")
        req["series"] = CSV_BUCKETS if args.csv else SPARK_BUCKETS
        if args.csv:
            req["step"] = 60  # a row a minute (a longer period: longer rows)
    elif args.command == "alarms":
        if args.active:
            req["active"] = True
    elif args.command == "ack":
        req["alarm"] = utf8(args.alarm, "ID")
    return req


def _recording(path: str) -> str:
    """The WAV file, base64-encoded (the daemon checks its format and says what is wrong)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORDING + 1)
    except OSError as exc:
        raise Usage(f"cannot read {shown(path)}: {exc.strerror or exc}") from None
    if len(data) > MAX_RECORDING:
        raise Usage(f"{shown(path)} is larger than {MAX_RECORDING / 1e6:.1f} MB; a spoken "
                         "command is a few seconds of 16 kHz mono audio")
    return base64.b64encode(data).decode("ascii")


def main(argv: list[str] | None = None) -> None:
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a character
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        code = run(argv)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):
            print(file=sys.stderr)
        code = EX_INTERRUPTED
    except OSError as exc:  # stderr itself cannot be written: nothing left to say it on
        _drop_stdout()
        code = _output_failed(exc)
    sys.exit(code)


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the flush at exit finds no closed pipe to complain of."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _output_failed(exc: OSError, status: str | None = None) -> int:
    """Say on stderr (if it can be written) that the answer could not be written; EX_IOERR."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    what = f"the answer (status {status})" if status else "the answer"
    with contextlib.suppress(OSError, ValueError):
        print(f"hermesctl: cannot write {what} to stdout: {shown(reason)}", file=sys.stderr,
              flush=True)
    return EX_IOERR


def emit(show: Callable[[], None], status: str | None = None) -> int | None:
    """Run `show` (which prints an answer) and flush it: None when it reached stdout, or when
    its reader left (`| head`: it had all it wanted); EX_IOERR, said on stderr, when stdout
    could not take it (`> /dev/full`, an I/O error)."""
    if sys.stdout is None:  # started with stdout closed (`>&-`): print would drop it silently
        return _output_failed(OSError(errno.EBADF, "stdout is closed"), status)
    try:
        show()
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
    except OSError as exc:
        _drop_stdout()  # what is still buffered cannot be written at exit either
        return _output_failed(exc, status)
    return None


def run(argv: list[str] | None = None) -> int:
    """hermesctl's work; its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    as_json = getattr(args, "json", False)
    path = socket_path(getattr(args, "socket", None))
    timeout = getattr(args, "timeout", None)
    wait = (timeout or 60.0) + 5.0
    if args.command == "listen":
        wait = max(wait, args.window + LISTEN_EXTRA)
    if args.command == "scan":
        wait = ctl_scan.request_timeout(args) + 5.0
    client = Client(path, timeout=wait)
    try:
        if args.command == "ask" and not args.text and not args.audio:
            return interactive(client, args, as_json)
        try:
            answer = client.request(make_request(args))
        except (Usage, Unsendable) as exc:
            print(f"hermesctl: {exc}", file=sys.stderr)
            return EX_USAGE
        except (Unreachable, BadAnswer) as exc:
            code = EX_UNAVAILABLE if isinstance(exc, Unreachable) else EX_PROTOCOL
            if as_json:
                failure = _failure(str(exc), code)
                failed = emit(lambda: print_json(failure))
                return failed if failed is not None else code
            print(f"hermesctl: {exc}", file=sys.stderr)
            return code
        as_csv = getattr(args, "csv", False)
        failed = emit(lambda: print_answer(args.command, answer, as_json, as_csv),
                      answer["status"])
        return failed if failed is not None else STATUS_EXIT[answer["status"]]
    finally:
        client.close()


def print_json(obj: dict[str, Any]) -> None:
    """One JSON object on stdout: UTF-8 when stdout is, else ASCII with escapes."""
    utf8_out = (getattr(sys.stdout, "encoding", "") or "").lower().replace("-", "") == "utf8"
    print(json.dumps(obj, ensure_ascii=not utf8_out, allow_nan=False))


def _failure(message: str, code: int) -> dict[str, Any]:
    """The --json answer when there is none from the daemon (unreachable, or unreadable)."""
    error = ErrorCode.TOOL_UNAVAILABLE if code == EX_UNAVAILABLE else ErrorCode.INTERNAL
    return failure(error, message).to_dict()


def interactive(client: Client, args: argparse.Namespace, as_json: bool) -> int:
    """A prompt for a technician: one command per line, one answer per line."""
    tty = sys.stdin is not None and sys.stdin.isatty()  # None: started with stdin closed
    history = Path.home() / ".hermesctl_history"
    if tty:
        with contextlib.suppress(ImportError, OSError):
            import readline

            readline.read_history_file(history)
    worst = 0
    try:
        while True:
            try:
                line = _next_line(tty)
            except EOFError:
                break
            except UnicodeDecodeError as exc:  # stdin in strict mode: the line is lost
                print(f"hermesctl: a line is not UTF-8 text ({exc.reason}); hermesd takes UTF-8 "
                      "only", file=sys.stderr)
                worst = max(worst, EX_USAGE)
                continue
            except (OSError, RuntimeError) as exc:  # no stdin to read (closed, or not ours)
                print(f"hermesctl: cannot read commands: {exc}", file=sys.stderr)
                return max(worst, EX_USAGE)
            text = line.strip()
            if not text:
                continue
            if text in ("quit", "exit"):
                break
            args.text = [text]
            try:
                answer = client.request(make_request(args))
            except (Usage, Unsendable) as exc:
                print(f"hermesctl: {exc}", file=sys.stderr)
                worst = max(worst, EX_USAGE)
                continue
            except (Unreachable, BadAnswer) as exc:
                print(f"hermesctl: {exc}", file=sys.stderr)
                return EX_UNAVAILABLE if isinstance(exc, Unreachable) else EX_PROTOCOL
            failed = emit(functools.partial(print_answer, "ask", answer, as_json),
                          answer["status"])
            if failed is not None:  # stdout is gone: no point asking more
                return failed
            worst = max(worst, STATUS_EXIT[answer["status"]])
    finally:
        if tty:
            _keep_history(history)
    return worst


#: commands the prompt's history keeps: a technician's recent ones, not every one ever typed
HISTORY_LINES = 1000


def _keep_history(path: Path) -> None:
    """The prompt's history, for its user only (commands name plant, points and values) and
    at most HISTORY_LINES of it."""
    with contextlib.suppress(ImportError, OSError):
        import readline

        readline.set_history_length(HISTORY_LINES)
        old = os.umask(0o077)
        try:
            readline.write_history_file(path)
        finally:
            os.umask(old)
        os.chmod(path, 0o600)  # one written before by a hermesctl that left it readable


def _next_line(tty: bool) -> str:
    """The next command: with a prompt at a terminal; else a plain line of stdin (input()
    would flush stdout first, and a stdout that cannot be written is not a stdin problem)."""
    if tty:
        return input("hermes> ")
    if sys.stdin is None:  # started with stdin closed
        raise RuntimeError("stdin is closed")
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def print_answer(command: str, answer: dict[str, Any], as_json: bool,
                 as_csv: bool = False) -> None:
    if as_json:
        print_json(answer)
        return
    answer = printable(answer)
    if as_csv and answer.get("status") == "ok":
        print(history_csv(answer))
        return
    try:
        if command == "scan" and answer.get("status") == "ok":
            asked = ((answer.get("action") or {}).get("args")) or {}
            text, err = ctl_scan.format_scan((answer.get("result") or {})["value"], asked), ""
        else:
            text, err = _human(command, answer)
    except (KeyError, TypeError, AttributeError, ValueError, IndexError):
        # an answer of an unexpected shape: show it as it came rather than fail on it
        text, err = json.dumps(answer, ensure_ascii=False, indent=2), ""
    if text:
        print(text)
    if err:
        print(err, file=sys.stderr)


def printable(obj: Any) -> Any:
    """`obj` with every text in it safe to show on a terminal: control and invisible formatting
    characters as visible escapes (`\\x1b`, `\\x0a`, `\\u202e`). A device's text value is
    anyone's words: raw, "\\x1b]0;...\\x07" retitles the terminal, "\\x1b[2J" clears it, and
    "\\r\\nBoiler 3 temperature is 20 °C" prints a line hermesd never said. hermesd's own
    replies hold none of these; `--json` shows the text exactly, as JSON escapes."""
    if isinstance(obj, str):
        return "".join(_escaped(ch) if unicodedata.category(ch) in ("Cc", "Cf") else ch
                       for ch in obj)
    if isinstance(obj, list):
        return [printable(item) for item in obj]
    if isinstance(obj, dict):
        return {key: printable(value) for key, value in obj.items()}
    return obj


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _human(command: str, answer: dict[str, Any]) -> tuple[str, str]:
    """What a person sees on stdout and stderr for an answer."""
    status = answer.get("status")
    if command == "status" and status == "ok":
        return format_status(answer.get("result") or {}), ""
    if command == "points" and status == "ok":
        return format_points((answer.get("result") or {}).get("points", [])), ""
    if command == "tools" and status == "ok":
        return format_tools((answer.get("result") or {}).get("tools", {})), ""
    if command == "history" and status == "ok":
        return history_text(answer), ""
    if command == "alarms" and status == "ok":
        return alarms_text(answer), ""
    reply = answer.get("reply") or ""
    heard = f"heard: {answer['transcript']!r}\n" if "transcript" in answer else ""
    if status in ("ok", "stale", "dry_run"):
        if command == "call" and status == "ok":
            out = json.dumps((answer.get("result") or {}).get("value"), ensure_ascii=False,
                             indent=2)
        else:
            out = str(reply)
        if status == "dry_run":
            out += "".join(f"\n  ✓ {check}" for check in answer.get("checks") or [])
        return out, heard.rstrip("\n")
    error = answer.get("error") or {}
    return "", heard + f"{status}: {error.get('code', '?')}: {error.get('message') or reply}"


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
        bus = d.get("bus")
        if isinstance(bus, dict):
            exceptions = ", ".join(f"{n}× code {c}" for c, n in
                                   (bus.get("exceptions") or {}).items()) or "none"
            p99 = (bus.get("latency_ms") or {}).get("p99_le")
            lines.append(f"  {'':10} bus: {bus.get('requests')} requests, p99 "
                         f"{'-' if p99 is None else f'≤ {p99:g} ms'}, exceptions {exceptions}, "
                         f"{bus.get('timeouts')} timeouts, {bus.get('reconnects')} reconnects")
    lines.extend(f"write rate: role {row.get('role')} for {row.get('who')} ({row.get('source')}) "
                 f"limited since {row.get('since')}, {row.get('refused')} refused, next write "
                 f"in {row.get('next_write_in_s')} s"
                 for row in (s.get("write_rate") or {}).get("limited") or [])
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
