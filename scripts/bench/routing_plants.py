"""The plants the routing benchmark runs: the dev plant, the cold store, the router's own
development plants (tests/data/plants) and every held-out plant.

A plant is a config (as a dict, so the bench can point its paths at a scratch directory and set
`llm.model`/`llm.threads`) and its commands. The held-out plants are read from the eval folder
(`<industry>.yaml` + `<industry>.jsonl`) and never written to; their commands are measured,
never copied anywhere else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hermesd.config import strict_yaml
from hermesd.config.loader import validate
from hermesd.config.model import Config
from tests.support.plants import (
    COLD_STORE_COMMANDS,
    OWN_PLANTS,
    PLANTS,
    cold_store,
    dev_commands,
    dev_plant,
)

EVAL_DIR = Path("/work/shared/data/eval")
GROUPS = ("dev", "cold", "own", "eval")


@dataclass(frozen=True)
class Plant:
    name: str
    group: str  # dev | cold | own | eval
    data: dict[str, Any]
    commands: list[dict[str, Any]]

    def config(self, scratch: Path, state: Path, *, model: str, threads: str) -> Config:
        """The validated config, with its runtime dir in `scratch` and its state dir `state`
        (one for the whole run: the worker remembers its CPU backend there, as a daemon's does,
        so only the first worker of a run tries the backends)."""
        state.mkdir(parents=True, exist_ok=True)
        data = {**self.data, "paths": {"state_dir": str(state),
                                       "runtime_dir": str(scratch / "run")}}
        data["llm"] = {**data.get("llm", {}), "model": model,
                       "threads": threads if threads == "auto" else int(threads)}
        return validate(data, scratch / f"{self.name}.yaml")


def read_commands(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def plant_file(config: Path, group: str) -> Plant:
    """A plant of a `<name>.yaml` and its `<name>.jsonl` next to it."""
    data = strict_yaml.load(config.read_text(encoding="utf-8"))
    return Plant(config.stem, group, data, read_commands(config.with_suffix(".jsonl")))


def eval_plants(folder: Path) -> list[Plant]:
    plants = [plant_file(config, "eval") for config in sorted(folder.glob("*.yaml"))
              if config.with_suffix(".jsonl").is_file()]
    if not plants:
        raise SystemExit(f"no plants (<name>.yaml + <name>.jsonl) in {folder}")
    return plants


def own_plants() -> list[Plant]:
    """The router's development plants, written for it: measured like the held-out ones, but
    what is tuned to them is no evidence about plants never seen. Those the tests know first
    (OWN_PLANTS), then any other `<name>.yaml` + `<name>.jsonl` in their folder."""
    names = [*OWN_PLANTS, *sorted(p.stem for p in PLANTS.glob("*.yaml")
                                  if p.with_suffix(".jsonl").is_file()
                                  and p.stem not in OWN_PLANTS)]
    return [plant_file(PLANTS / f"{name}.yaml", "own") for name in names]


def select(spec: str, eval_dir: Path) -> list[Plant]:
    """The plants a `--plants` value names: `all`, groups (dev, cold, own, eval), own or eval
    plant names, comma-separated, in the order given."""
    wanted = [w.strip() for w in spec.split(",") if w.strip()]
    if "all" in wanted:
        wanted = list(GROUPS)
    fixed: dict[str, Callable[[], Plant]] = {
        "dev": lambda: Plant("dev", "dev", dev_plant(), dev_commands()),
        "cold": lambda: Plant("cold", "cold", cold_store(), list(COLD_STORE_COMMANDS)),
    }
    own = own_plants()
    held_out = eval_plants(eval_dir) if any(
        w not in fixed and w != "own" and w not in {p.name for p in own} for w in wanted) else []
    plants: list[Plant] = []
    for word in wanted:
        if word in fixed:
            plants.append(fixed[word]())
        elif word == "own":
            plants += own
        elif word == "eval":
            plants += held_out
        elif word in {p.name for p in [*own, *held_out]}:
            plants += [p for p in [*own, *held_out] if p.name == word]
        elif word != "none":
            known = ", ".join(["all", *GROUPS, *(p.name for p in [*own, *held_out])])
            raise SystemExit(f"--plants: no plant {word!r} (known: {known})")
    return plants
