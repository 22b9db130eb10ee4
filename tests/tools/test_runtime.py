"""The tool runtime's shutdown: a task that swallows its cancel does not keep a tool alive."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

STUBBORN = '''
import asyncio
from hermes_tools.runtime import Tool, main

class Stubborn(Tool):
    name = "stubborn"

    async def run(self) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            pass  # swallowed, as asyncio.wait_for (3.11) does when a reply meets the cancel
        await asyncio.Event().wait()

main(Stubborn())
'''


def test_a_tool_whose_task_swallows_a_cancel_still_exits(tmp_path: Path) -> None:
    script = tmp_path / "stubborn.py"
    script.write_text(STUBBORN)
    sock_path = tmp_path / "s.sock"
    proc = subprocess.Popen([sys.executable, str(script), "--socket", str(sock_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "READY"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(10)
            conn.connect(str(sock_path))
            lines = conn.makefile()
            assert json.loads(lines.readline())["type"] == "hello"
            conn.sendall(b'{"type": "configure", "id": 1, "config": {}}\n')
            assert json.loads(lines.readline())["type"] == "result"  # run() has started
            lines.close()
        # the daemon is gone: the tool must end, not wait for its stubborn task forever
        assert proc.wait(timeout=20) == 0
        assert "ignored a cancel at shutdown; cancelling again" in (proc.stderr.read()
                                                                      if proc.stderr else "")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
