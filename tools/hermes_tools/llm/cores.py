"""How many threads the model runs with when `llm.threads` is `auto`.

llama.cpp runs best with one thread per physical core, and its threads spin at every barrier:
when another process takes one of those cores, every token waits for it. Measured on this
2-core machine with other jobs running (scripts/bench/routing.py --threads-compare), two
threads placed a command in 709 ms at the median and 4.5 s at p95, one thread in 283 ms and
428 ms. The daemon, its tools and the rest of the machine always want a core, so `auto` is the
physical cores less one (at least one): 1 here, 3 on a Raspberry Pi 4. Physical cores are the
distinct (package, core) pairs of the CPUs in this process's affinity mask, from sysfs; without
sysfs, the affinity count.
"""

from __future__ import annotations

import os
from pathlib import Path

SYSFS = Path("/sys/devices/system/cpu")


def physical_cores() -> int:
    cpus = sorted(os.sched_getaffinity(0))
    cores: set[tuple[str, str]] = set()
    for cpu in cpus:
        topology = SYSFS / f"cpu{cpu}" / "topology"
        try:
            package = (topology / "physical_package_id").read_text().strip()
            core = (topology / "core_id").read_text().strip()
        except OSError:
            return max(1, len(cpus))
        cores.add((package, core))
    return max(1, len(cores) or len(cpus))


def auto_threads() -> int:
    """Threads for `llm.threads: auto`: a core is left to the daemon and the machine."""
    return max(1, physical_cores() - 1)
