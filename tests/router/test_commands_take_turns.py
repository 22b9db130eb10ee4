"""Commands that arrive together are placed one per turn of the event loop.

The rules and the semantic stage run on the loop. A burst of long questions (64 pipelined on one
connection by a viewer, or on MQTT by any client) used to be placed back to back in one turn, so
the loop held timers, the watchdog's ping and everyone else's answers for as long as the whole
burst took (review atk7, F3: the watchdog went 60 s without a ping). Now each command waits its
turn: whatever else is ready runs between two of them.
"""

from __future__ import annotations

import asyncio

from hermesd.router import Router
from tests.support.plants import config_of, dev_plant, routed_without_model

#: a long question of the plant's words, which the rules leave to the semantic stage
LONG = ("what is the " + " ".join(["boiler", "feed", "pump", "steam", "valve", "pressure",
                                   "temperature", "level"] * 9))


async def test_other_work_runs_between_commands_that_arrive_together() -> None:
    router = Router(config_of(dev_plant()))
    order: list[str] = []

    async def ask(k: int) -> None:
        await routed_without_model(router, LONG)
        order.append(f"command {k}")

    burst = [asyncio.create_task(ask(k)) for k in range(8)]
    # ready after the burst: before, it ran only once all eight had been placed
    asyncio.get_running_loop().call_soon(order.append, "other work")
    await asyncio.gather(*burst)
    assert order.index("other work") <= 1, order
    assert len(order) == 9


async def test_a_command_is_placed_the_same_when_it_waits_its_turn() -> None:
    router = Router(config_of(dev_plant()))
    texts = ["what is the temperature of boiler 1", "set feed pump 1 to 1000 rpm",
             "打开2号蒸汽阀", LONG]
    alone = [await routed_without_model(router, t) for t in texts]
    together = await asyncio.gather(*(routed_without_model(router, t) for t in texts))
    assert list(together) == alone
