"""hermesd.core.deferred: a module imported by a library but never used is never run, and is
the real module, complete, from its first use on. In a fresh interpreter each (sys.modules is
the process's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_deferred_module_runs_at_its_first_use_and_is_the_real_one() -> None:
    out = run(
        "import sys\n"
        "from hermesd.core.deferred import defer_import\n"
        "defer_import('urllib.request')\n"
        "import urllib.request\n"  # as a library's top would
        "from urllib import request\n"
        "print('http.client' in sys.modules)\n"
        "proxies = urllib.request.getproxies\n"  # the first use
        "print('http.client' in sys.modules, type(sys.modules['urllib.request']).__name__)\n"
        "import urllib.request as again\n"
        "print(again.Request is request.Request, again is urllib.request)\n")
    assert out.splitlines() == ["False", "True module", "True True"]


def test_a_module_already_imported_stays_and_a_missing_one_is_an_error() -> None:
    out = run(
        "import urllib.request, sys\n"
        "from hermesd.core.deferred import defer_import\n"
        "real = sys.modules['urllib.request']\n"
        "defer_import('urllib.request')\n"
        "print(sys.modules['urllib.request'] is real)\n"
        "try:\n"
        "    defer_import('no_such_module_here')\n"
        "except ModuleNotFoundError as exc:\n"
        "    print(exc.name)\n")
    assert out.splitlines() == ["True", "no_such_module_here"]


def test_the_mqtt_tool_does_not_load_what_paho_imports_for_proxies() -> None:
    out = run("import sys, hermes_tools.mqtt.tool\n"
              "print(sorted(m for m in ('http.client', 'email.parser') if m in sys.modules))\n")
    assert out == "[]"
