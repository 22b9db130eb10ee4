"""The daemon's end of the zygote (hermesd.core.zygote): start it, ask it for tools, learn exits.

`fork_here()` forks the zygote from the daemon itself, at start, before the event loop or any
thread exists: the zygote and every tool it forks then share with the daemon the interpreter,
asyncio and the modules loaded so far. The `Zygote` sends it the requests, and if it is gone (or
was never forked: a daemon with threads, `HERMESD_ZYGOTE=0` aside) starts one as a program,
`python -m hermesd.core.zygote` — at most once per `RESPAWN_EVERY` seconds. When it cannot
have one, `start` raises `ZygoteUnavailable` and the supervisor execs the tool as before: a
tool is never left unstartable because of the zygote.

A forked tool is a `ForkedProcess`: what the supervisor and `children.stop_child` use of an
asyncio subprocess (pid, returncode, stdout, wait, terminate, kill). Signals go through a pidfd
(never to a pid reused after the tool ended); the zygote, its parent, reaps it and reports its
exit status. If the zygote dies, its tools get their parent-death signal and end; their exit
status is then unknown (`exit_known` false) and their end is seen on their pidfd.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

RESPAWN_EVERY = 10.0  # seconds between attempts to start a zygote after one was lost
REPLY_TIMEOUT = 10.0  # seconds the zygote may take to fork a tool (the first import is slow)
MAX_MESSAGE = 1 << 16
ENV_SWITCH = "HERMESD_ZYGOTE"


class ZygoteUnavailable(Exception):
    """No zygote can start this tool now; exec it instead."""


def enabled() -> bool:
    return os.environ.get(ENV_SWITCH, "1") != "0"


class ForkedProcess:
    """A tool process the zygote forked, seen like an asyncio subprocess."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.exit_known = True  # false: it ended with the zygote, how is not known
        self.stdout: asyncio.StreamReader | None = None
        self._pidfd = pidfd
        self._transport: asyncio.BaseTransport | None = None
        self._ended = asyncio.get_running_loop().create_future()
        self._watching = False

    async def _attach(self, read_end: int) -> None:
        """Read its stdout (the pipe's read end) as asyncio's subprocess would."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2 ** 16, loop=loop)
        pipe = os.fdopen(read_end, "rb", buffering=0)
        try:
            self._transport, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader, loop=loop), pipe)
        except BaseException:
            pipe.close()
            raise
        self.stdout = reader

    async def wait(self) -> int:
        await asyncio.shield(self._ended)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is not None or self._pidfd < 0:
            return
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(self._pidfd, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def release(self) -> None:
        """Close its pipe and pidfd (once it has ended, or is being given up)."""
        if self._transport is not None:
            self._transport.close()
        self._unwatch()
        if self._pidfd >= 0:
            os.close(self._pidfd)
            self._pidfd = -1

    def _exited(self, returncode: int, known: bool = True) -> None:
        if self.returncode is None:
            self.returncode, self.exit_known = returncode, known
            self._unwatch()
            if not self._ended.done():
                self._ended.set_result(None)

    def _orphaned(self) -> None:
        """The zygote is gone: this process ends on its parent-death signal, or has ended;
        its pidfd becomes readable when it is gone."""
        if self.returncode is not None or self._pidfd < 0:
            return
        self._watching = True
        asyncio.get_running_loop().add_reader(
            self._pidfd, self._exited, -signal.SIGTERM, False)

    def _unwatch(self) -> None:
        if self._watching and self._pidfd >= 0:
            self._watching = False
            asyncio.get_running_loop().remove_reader(self._pidfd)


class _Connection:
    """One zygote process and the socket to it."""

    def __init__(self, pid: int, sock: socket.socket, popen: subprocess.Popen[bytes] | None,
                 forked: bool) -> None:
        self.pid = pid
        self.sock = sock
        self.popen = popen  # when started as a program; None when forked from the daemon
        self.forked = forked
        self.pidfd = os.pidfd_open(pid)
        self.lost = False
        self.exit: int | None = None  # its exit status, once reaped
        self.attached = False
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[ForkedProcess]] = {}
        self.procs: dict[int, ForkedProcess] = {}

    def reaped(self) -> bool:
        """Whether the zygote has exited and been reaped (reaps it if it has exited)."""
        if self.exit is None:
            try:
                if self.popen is not None:
                    self.exit = self.popen.poll()
                else:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                    self.exit = os.waitstatus_to_exitcode(status) if pid else None
            except ChildProcessError:
                self.exit = -1
        return self.exit is not None

    def signal(self, sig: int) -> None:
        """Signal the zygote; safe by pid: our child's pid is not reused until we reap it."""
        if not self.reaped():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def close_pidfd(self) -> None:
        if self.pidfd >= 0:
            os.close(self.pidfd)
            self.pidfd = -1


class Zygote:
    """The daemon's handle on its zygote: asks it to fork tools, restarts it when it is lost."""

    def __init__(self, first: _Connection | None = None) -> None:
        self._conn = first
        self._last_spawn = -RESPAWN_EVERY if first is None else time.monotonic()
        self._closed = False

    @property
    def pid(self) -> int | None:
        conn = self._conn
        return conn.pid if conn is not None and not conn.lost else None

    async def start(self, module: str, argv: list[str], env: dict[str, str]) -> ForkedProcess:
        """Have the zygote fork `python -m module *argv` with `env`; raises ZygoteUnavailable."""
        conn = self._connection()
        read_end, write_end = os.pipe2(os.O_CLOEXEC)
        try:
            try:
                proc = await self._ask(conn, module, argv, env, write_end)
            finally:
                os.close(write_end)
        except BaseException:
            os.close(read_end)
            raise
        try:
            await proc._attach(read_end)
        except BaseException:
            proc.kill()
            proc.release()
            raise
        return proc

    async def _ask(self, conn: _Connection, module: str, argv: list[str], env: dict[str, str],
                   stdout: int) -> ForkedProcess:
        conn.next_id += 1
        msg_id = conn.next_id
        fut: asyncio.Future[ForkedProcess] = asyncio.get_running_loop().create_future()
        conn.pending[msg_id] = fut
        request = {"id": msg_id, "module": module, "argv": argv, "env": env, "cwd": os.getcwd(),
                   "umask": _umask()}
        try:
            socket.send_fds(conn.sock, [json.dumps(request).encode()], [stdout, 2])
        except OSError as exc:
            self._lose(conn, f"cannot send it a request: {exc.strerror or exc}", kill=True)
        try:
            async with asyncio.timeout(REPLY_TIMEOUT):
                return await fut
        except TimeoutError:
            self._lose(conn, f"did not fork {module} within {REPLY_TIMEOUT:g} s", kill=True)
            raise ZygoteUnavailable(f"the zygote did not fork {module} in time") from None
        finally:
            conn.pending.pop(msg_id, None)

    def _connection(self) -> _Connection:
        if self._closed:
            raise ZygoteUnavailable("the daemon is stopping")
        conn = self._conn
        if conn is None or conn.lost:
            if not enabled():
                raise ZygoteUnavailable(f"{ENV_SWITCH}=0")
            if time.monotonic() - self._last_spawn < RESPAWN_EVERY:
                raise ZygoteUnavailable("the zygote was lost a moment ago")
            self._last_spawn = time.monotonic()
            try:
                conn = self._conn = _spawn()
            except OSError as exc:
                raise ZygoteUnavailable(f"cannot start a zygote: {exc}") from None
            log.info("zygote started as a program (pid %d)", conn.pid)
        if not conn.attached:
            loop = asyncio.get_running_loop()
            loop.add_reader(conn.sock.fileno(), self._readable, conn)
            loop.add_reader(conn.pidfd, self._zygote_ended, conn)
            conn.attached = True
        return conn

    def _readable(self, conn: _Connection) -> None:
        while not conn.lost:
            try:
                data, fds, _, _ = socket.recv_fds(conn.sock, MAX_MESSAGE, 2)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                self._lose(conn, str(exc))
                return
            if not data:
                for fd in fds:
                    os.close(fd)
                self._lose(conn, "it closed its socket")
                return
            try:
                self._handle(conn, json.loads(data), fds)
            except (ValueError, KeyError, TypeError) as exc:
                for fd in fds:
                    os.close(fd)
                self._lose(conn, f"it sent a bad message: {exc}", kill=True)
                return

    def _handle(self, conn: _Connection, msg: dict[str, Any], fds: list[int]) -> None:
        if "exit" in msg:
            proc = conn.procs.pop(int(msg["exit"]), None)
            if proc is not None:
                proc._exited(int(msg["status"]))
            return
        if "pid" in msg and len(fds) != 1:
            raise ValueError(f"a fork reply with {len(fds)} descriptors")
        fut = conn.pending.pop(int(msg["id"]), None)
        if fut is None or fut.done():  # given up on: the tool is not ours to run
            if "pid" in msg and fds:
                with contextlib.suppress(ProcessLookupError):
                    signal.pidfd_send_signal(fds[0], signal.SIGKILL)
            for fd in fds:
                os.close(fd)
            return
        if "error" in msg:
            for fd in fds:
                os.close(fd)
            fut.set_exception(ZygoteUnavailable(f"the zygote could not fork it: {msg['error']}"))
            return
        pid = int(msg["pid"])
        conn.procs[pid] = proc = ForkedProcess(pid, fds[0])
        fut.set_result(proc)

    def _zygote_ended(self, conn: _Connection) -> None:
        self._readable(conn)  # the exits it reported before it went
        self._lose(conn, "it exited")

    def _lose(self, conn: _Connection, why: str, kill: bool = False) -> None:
        """The zygote is unusable: stop listening to it, end it, and let its tools be seen to
        end on their pidfds."""
        if conn.lost:
            return
        conn.lost = True
        if not self._closed:
            log.warning("zygote (pid %d) lost: %s; tools it started end and are restarted",
                        conn.pid, why)
        loop = asyncio.get_running_loop()
        if conn.attached:
            loop.remove_reader(conn.sock.fileno())
            loop.remove_reader(conn.pidfd)
        if kill:
            conn.signal(signal.SIGKILL)
        conn.sock.close()
        for fut in conn.pending.values():
            if not fut.done():
                fut.set_exception(ZygoteUnavailable(f"the zygote was lost: {why}"))
        conn.pending.clear()
        for proc in conn.procs.values():
            proc._orphaned()
        conn.procs.clear()
        if not conn.reaped():
            # its socket closes just before it exits: reap it when its pidfd says it has
            loop.add_reader(conn.pidfd, self._reap, conn)
        else:
            conn.close_pidfd()

    @staticmethod
    def _reap(conn: _Connection) -> None:
        if conn.reaped():
            asyncio.get_running_loop().remove_reader(conn.pidfd)
            conn.close_pidfd()

    async def close(self, timeout: float = 5.0) -> None:
        """End the zygote (it exits when its socket closes) and reap it, within `timeout`."""
        self._closed = True
        conn, self._conn = self._conn, None
        if conn is None:
            return
        if not conn.lost:
            if conn.attached:
                self._lose(conn, "the daemon is stopping")
            else:  # never used in this loop: nothing to stop listening to
                conn.lost = True
                conn.sock.close()
        deadline = time.monotonic() + timeout
        while not conn.reaped():
            if time.monotonic() > deadline:
                conn.signal(signal.SIGKILL)
            await asyncio.sleep(0.01)
        if conn.pidfd >= 0:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(conn.pidfd)
            conn.close_pidfd()


def _umask() -> int:
    """This process's umask, read without changing it (which would race the daemon's threads)."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    return 0o022


def fork_here() -> tuple[Zygote, str]:
    """At the daemon's start: fork the zygote from this process, if it has no thread yet.
    Returns the handle (which starts a zygote as a program later if this could not fork one)
    and what was done, for the log."""
    if not enabled():
        return Zygote(), f"tools are started as programs ({ENV_SWITCH}=0)"
    if threading.active_count() != 1 or not hasattr(os, "pidfd_open"):
        return Zygote(), "the zygote will be started as a program (this process cannot fork it)"
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    gc.freeze()  # the daemon's collections then write to none of the pages the zygote shares
    daemon = os.getpid()
    pid = os.fork()
    if pid == 0:  # the zygote: it never returns into the daemon's code
        code = 0
        try:
            ours.close()
            from hermesd.core import zygote

            zygote.become(theirs, daemon)
        except BaseException:
            code = 70
        finally:
            os._exit(code)
    theirs.close()
    ours.setblocking(False)
    return Zygote(_Connection(pid, ours, None, forked=True)), f"zygote forked (pid {pid})"


def _spawn() -> _Connection:
    """Start a zygote as a program (`python -m hermesd.core.zygote`)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        popen = subprocess.Popen(
            [sys.executable, "-m", "hermesd.core.zygote", "--fd", str(theirs.fileno()),
             "--daemon", str(os.getpid())],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=[theirs.fileno()],
            cwd=str(Path.cwd()))
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    ours.setblocking(False)
    return _Connection(popen.pid, ours, popen, forked=False)
