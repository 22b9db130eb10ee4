"""The zygote: one small process that forks the built-in Python tools from modules it has loaded.

A tool started fresh (`python -m hermes_tools.modbus`) builds its own interpreter, asyncio,
pymodbus...: 15-17 MiB of private memory each. Forked from a process that has already imported
them, a tool shares those pages with its siblings and keeps only what it changes itself.

The daemon forks the zygote once, early, before its event loop or any thread exists (or, when
that was not possible or the zygote died, starts it as `python -m hermesd.core.zygote --fd N`),
and asks it over a private socketpair (SOCK_SEQPACKET, one JSON message per packet, file
descriptors beside it) to start a tool:

    daemon -> zygote   {"id": n, "module": "hermes_tools.modbus", "argv": [...], "env": {...},
                        "cwd": "...", "umask": 18}    + [stdout pipe, stderr]
    zygote -> daemon   {"id": n, "pid": p}             + [pidfd of p]
                       {"id": n, "error": "..."}       (it could not: the daemon execs the tool)
                       {"exit": p, "status": s}        (p ended; s as asyncio's returncode)

The zygote imports each tool's module once (the first time it is asked for it), freezes what it
holds out of the garbage collector's reach (`gc.freeze`: a collection in a child then writes
to none of those pages), and forks. The child becomes what `python -m module --socket PATH`
would have been: its own session, its parent's death signal, stdin from /dev/null, stdout to
the daemon's pipe, stderr the daemon's, the daemon's environment, working directory and umask,
`sys.argv`, and the module run as `__main__`; `ps` shows it as that command. It serves only
the daemon (`daemon_pid`), as a tool the daemon started itself does. The zygote reaps its
children and reports each exit. It ends when the daemon closes its end of the socketpair, or
dies with the daemon (its own death signal); its children die with it (theirs).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ctypes
import gc
import importlib
import importlib.util
import json
import logging
import os
import re
import runpy
import select
import signal
import socket
import sys
import traceback
from typing import Any

from hermesd.core import eventloop

log = logging.getLogger(__name__)

MAX_MESSAGE = 1 << 20  # bytes of one request (the environment is most of it)
MAX_FDS = 4
_PR_SET_PDEATHSIG = 1
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")

#: in a tool the zygote forked: the daemon it serves (its parent is the zygote)
_daemon_pid: int | None = None


def daemon_pid() -> int:
    """The pid of the daemon this tool process serves: its parent, or, when the zygote forked
    it, the zygote's parent."""
    return _daemon_pid if _daemon_pid is not None else os.getppid()


def die_with_parent(parent: int, sig: int = signal.SIGTERM) -> bool:
    """PR_SET_PDEATHSIG: the kernel sends `sig` when `parent` dies; False if it is already gone
    (or this is not Linux: then nothing ties us to it)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(sig))
    return os.getppid() == parent


def become(sock: socket.socket, daemon: int) -> None:
    """Turn this process (just forked or exec'd by `daemon`) into the zygote and serve until the
    daemon closes `sock`. Returns only then."""
    if not die_with_parent(daemon):
        return
    with contextlib.suppress(OSError):
        os.setsid()  # the terminal's Ctrl-C and the daemon's process group are not ours
    retitle([sys.executable, "-m", "hermesd.core.zygote"])
    atexit._clear()  # a forked daemon's exit handlers are not the zygote's (nor a tool's)
    gc.disable()  # no freed holes in what the tools will share; nothing here makes cycles
    logging.root.handlers.clear()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="zygote[%(process)d] %(levelname)s %(name)s: %(message)s")
    eventloop.loop_factory()  # uvloop, imported here once: 2.6 MiB less in each tool
    _Zygote(sock, daemon).serve()


class _Zygote:
    def __init__(self, sock: socket.socket, daemon: int) -> None:
        self.sock = sock
        self.daemon = daemon
        self.children: set[int] = set()
        self.wake_r, self.wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def serve(self) -> None:
        signal.signal(signal.SIGCHLD, _nothing)  # a handler, so the wakeup fd hears of exits
        signal.set_wakeup_fd(self.wake_w)
        poller = select.poll()
        poller.register(self.sock, select.POLLIN)
        poller.register(self.wake_r, select.POLLIN)
        try:
            while True:
                for fd, _ in poller.poll():
                    if fd == self.wake_r:
                        with contextlib.suppress(BlockingIOError):
                            os.read(self.wake_r, 512)
                    elif not self._request():
                        return
                self._reap()
        finally:
            signal.set_wakeup_fd(-1)
            self._reap()

    def _request(self) -> bool:
        """Take one request; False when the daemon has closed its end."""
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, MAX_MESSAGE, MAX_FDS)
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            return False
        if not data:
            for fd in fds:
                os.close(fd)
            return False
        request: Any = None
        try:
            request = json.loads(data)
            reply = self._fork(request, fds)
        except Exception as exc:
            asked = request.get("id") if isinstance(request, dict) else None
            reply = {"id": asked, "error": f"{type(exc).__name__}: {exc}"}, []
        finally:
            for fd in fds:
                os.close(fd)
        message, pass_fds = reply
        try:
            socket.send_fds(self.sock, [json.dumps(message).encode()], pass_fds)
        except OSError:
            return False
        finally:
            for fd in pass_fds:
                os.close(fd)
        return True

    def _fork(self, request: dict[str, Any], fds: list[int]) -> tuple[dict[str, Any], list[int]]:
        module = request["module"]
        if not isinstance(module, str) or not _MODULE.fullmatch(module):
            raise ValueError(f"not a module name: {module!r}")
        if len(fds) != 2:
            raise ValueError(f"expected stdout and stderr, got {len(fds)} descriptors")
        runnable = importlib.util.find_spec(f"{module}.__main__") if \
            importlib.util.find_spec(module) is not None else None
        if runnable is None:
            raise ModuleNotFoundError(f"{module} cannot be run with -m")
        importlib.import_module(f"{module}.__main__")  # once: its imports are what is shared
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        gc.freeze()
        zygote = os.getpid()
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                code = self._child(request, fds, zygote)
            except BaseException:  # nothing may return into the zygote's loop
                with contextlib.suppress(Exception):
                    traceback.print_exc()
            finally:
                os._exit(code)
        self.children.add(pid)
        try:
            pidfd = os.pidfd_open(pid)
        except OSError as exc:
            os.kill(pid, signal.SIGKILL)
            raise OSError(f"pidfd_open: {exc.strerror}") from None
        return {"id": request.get("id"), "pid": pid}, [pidfd]

    def _child(self, request: dict[str, Any], fds: list[int], zygote: int) -> int:
        """In the forked child: become `python -m module *argv` and run it; its exit code."""
        global _daemon_pid
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        self.sock.close()
        os.close(self.wake_r)
        os.close(self.wake_w)
        if not die_with_parent(zygote):
            return 1
        os.setsid()
        stdout, stderr = fds
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(stdout, 1)
        os.dup2(stderr, 2)
        for fd in {devnull, stdout, stderr} - {0, 1, 2}:
            os.close(fd)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        os.umask(request["umask"])
        _daemon_pid = self.daemon
        module, argv = request["module"], [str(a) for a in request["argv"]]
        retitle([sys.executable, "-m", module, *argv])
        logging.root.handlers.clear()
        logging.root.setLevel(logging.WARNING)
        gc.enable()
        sys.argv = [module, *argv]
        sys.modules.pop(f"{module}.__main__", None)  # runpy runs it afresh, as `__main__`
        code: int = 0
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = _exit_code(exc.code)
        except BaseException:
            traceback.print_exc()
            code = 1
        with contextlib.suppress(BaseException):
            atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        return code

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.children.clear()
                return
            if pid == 0:
                return
            self.children.discard(pid)
            with contextlib.suppress(OSError):
                socket.send_fds(self.sock, [json.dumps(
                    {"exit": pid, "status": os.waitstatus_to_exitcode(status)}).encode()], [])


def _nothing(signum: int, frame: Any) -> None:
    pass


def _exit_code(code: object) -> int:
    """What the interpreter would exit with for `sys.exit(code)`."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    with contextlib.suppress(Exception):
        print(code, file=sys.stderr)
    return 1


def retitle(argv: list[str]) -> bool:
    """Show `argv` as this process's command line (`ps`, /proc/PID/cmdline), in the space the
    one it was started with takes; the words that do not fit are left out, from the end."""
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rindex(b")") + 2:].split()
        start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end (fields 48, 49)
    except (OSError, ValueError, IndexError):
        return False
    words = [w.encode(errors="replace") for w in argv]
    while words and sum(len(w) + 1 for w in words) > end - start:
        words.pop()
    if not words:
        return False
    title = b"\0".join(words).ljust(end - start, b"\0")
    ctypes.memmove(start, title, len(title))
    return True


def main(argv: list[str] | None = None) -> None:
    """`python -m hermesd.core.zygote --fd N`: the zygote a daemon started as a program."""
    parser = argparse.ArgumentParser(prog="hermesd-zygote")
    parser.add_argument("--fd", type=int, required=True, help="the socketpair end to serve")
    parser.add_argument("--daemon", type=int, required=True, help="the pid of the daemon")
    args = parser.parse_args(argv)
    # the module tools import (it holds their daemon's pid), not this `__main__` copy of it
    canonical = importlib.import_module("hermesd.core.zygote")
    canonical.become(socket.socket(fileno=args.fd), args.daemon)


if __name__ == "__main__":
    main()
