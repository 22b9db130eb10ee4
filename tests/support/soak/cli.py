"""`scripts/soak [--duration 30m] [--rate N] [--mix hostile|normal] [--report FILE.json] [--short]`:
run a soak, report, judge.

Exit 0 when every target is met; 1 when one is missed; 2 when the soak itself could not run (the
report says why); 130 when interrupted (Ctrl-C or SIGTERM: everything started is still stopped
and the report of what ran so far is still written). Progress goes to stderr, the summary to
stdout, the full report as JSON to `--report`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import shutil
import signal
import sys
import traceback
from pathlib import Path
from typing import Any

from tests.support.soak.hostile_report import summary_lines
from tests.support.soak.report import summary
from tests.support.soak.run import Options, Soak, default_workdir

log = logging.getLogger("soak")

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")


def duration(text: str) -> float:
    match = _DURATION.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration like 90s, 30m or 2h")
    return float(match.group(1)) * {"s": 1, "m": 60, "h": 3600, None: 1}[match.group(2)]


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scripts/soak", description="The fault and soak suite: the dev plant under load "
        "while faults are injected; reports what was lost, latency, RSS growth and recovery.")
    parser.add_argument("--duration", type=duration, default=duration("30m"),
                        help="how long to run (e.g. 30m, 2h; default 30m)")
    parser.add_argument("--rate", type=float, default=15.0, help="requests per second (default 15)")
    parser.add_argument("--report", type=Path, help="write the JSON report here")
    parser.add_argument("--short", action="store_true",
                        help="every fault once, back to back (about 90 s); for the test suite")
    parser.add_argument("--workdir", type=Path,
                        help="where config, state, sockets and logs go (default: a new /tmp dir)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the work directory (logs, config) after a passing run")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the mix")
    parser.add_argument("--llm", choices=("config", "on", "off"), default="config",
                        help="llm.enabled: as configs/demo.yaml has it, or forced")
    parser.add_argument("--mix", choices=("hostile", "normal"), default="hostile",
                        help="hostile (the default): the normal load and, alongside it, "
                        "generated hostile inputs (README: Soak); normal: the load alone")
    parser.add_argument("--hostile", dest="mix", action="store_const", const="hostile",
                        help="the same as --mix hostile")
    parser.add_argument("--hostile-rate", type=float, default=3.0,
                        help="hostile inputs per second (default 3)")
    args = parser.parse_args(argv)
    if args.rate <= 0 or args.rate > 500:
        parser.error("--rate must be in (0, 500]")
    if args.hostile_rate <= 0 or args.hostile_rate > 100:
        parser.error("--hostile-rate must be in (0, 100]")
    if not args.short and args.duration < 180:
        parser.error("--duration under 3m leaves no room for the faults; use --short")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    made_workdir = args.workdir is None
    workdir = (args.workdir or default_workdir()).resolve()
    opts = Options(duration=args.duration, rate=args.rate, short=args.short, workdir=workdir,
                   seed=args.seed, llm={"config": None, "on": True, "off": False}[args.llm],
                   hostile=args.mix == "hostile", hostile_rate=args.hostile_rate)
    report = asyncio.run(_run(opts))
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.report:
        args.report.write_text(text + "\n", encoding="utf-8")
    print(summary(report, summary_lines(report)))
    if report["error"]:
        print(f"soak: could not run: {report['error']}", file=sys.stderr)
    keep = args.keep or not report["passed"] or not made_workdir
    if keep:
        print(f"soak: work directory (config, logs): {workdir}", file=sys.stderr)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    if report["interrupted"]:
        sys.exit(130)
    if report["error"]:
        sys.exit(2)
    sys.exit(0 if report["passed"] else 1)


async def _run(opts: Options) -> dict[str, Any]:
    soak = Soak(opts)
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()
    assert main_task is not None

    def interrupt() -> None:
        if not soak.interrupted:
            soak.interrupted = True
            log.warning("soak: interrupted; stopping everything it started")
            main_task.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, interrupt)
    try:
        await soak.run()
    except asyncio.CancelledError:
        if not soak.interrupted:
            raise
    except Exception as exc:  # the soak itself failed: still clean up and report
        soak.error = f"{type(exc).__name__}: {exc}"
        log.error("soak: %s\n%s", soak.error, traceback.format_exc())
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, lambda: log.warning("soak: still cleaning up"))
        await soak.cleanup()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    return soak.report()
