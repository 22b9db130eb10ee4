"""How many physical CPU cores this process may use: `llm.threads: auto`.

llama.cpp runs best with one thread per physical core; hyper-threads add contention, not speed.
Counts the distinct (package, core) pairs of the CPUs in this process's affinity mask, from
sysfs; falls back to the affinity count when sysfs says nothing (containers, odd kernels).
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
