"""MQTT benchmark: commands over MQTT, state publishing rate, and recovery after a broker restart.

    .venv/bin/python scripts/bench/mqtt.py [--commands 300] [--states 20000] [--restarts 5]

Everything runs against a local Mosquitto started here, with baselines measured in the same run
(ratios hold on a noisy machine, absolute figures do not):

1. Command over MQTT -> answer on the response topic (`read oven temperature`, MQTT 5 response
   topic and correlation data), p50/p99 in ms, one request at a time, against
   - a bare paho request/response round trip through the same broker (an echo client), and
   - the same `ask` over hermesd's control socket (the engine without MQTT).
2. State updates per second the mqtt tool publishes (QoS 1, retained, batches of 500 through
   its `publish` action, counted when a subscriber has all of them), against one bare paho
   client publishing the same messages.
3. Seconds from a broker restart (no persistence: every retained message is gone) until a fresh
   subscriber sees every discovery config of the dev plant and the node `online` again, against
   a bare paho client with the same reconnect backoff re-publishing one retained message.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import yaml
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hermes_tools.mqtt.connection import RECONNECT_MAX, RECONNECT_MIN  # noqa: E402

from hermesd.config import load_config  # noqa: E402
from hermesd.context import RequestContext  # noqa: E402
from hermesd.supervisor import Supervisor  # noqa: E402
from hermesd.toolspecs import tool_specs  # noqa: E402
from tests.mqtt.expected_plant import FAKED_DRIVERS, all_configs  # noqa: E402
from tests.support.daemon import DaemonRunner, base_config, fake_device  # noqa: E402
from tests.support.mosquitto import Mosquitto, retained_snapshot  # noqa: E402
from tests.support.plant import faked_plant  # noqa: E402

B = "hermesd/bench"


def no_delay(client: paho.Client, userdata: Any, sock: Any) -> None:
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as the mqtt tool does


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def row(name: str, samples: list[float], base: float | None = None) -> None:
    p50, p99 = pct(samples, 0.5), pct(samples, 0.99)
    ratio = f"  x{p50 / base:.2f} of the baseline p50" if base else ""
    print(f"  {name:<44} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms{ratio}")


# -- 1. commands ---------------------------------------------------------------------------------


class Requester:
    """Sends one request at a time and waits for the answer with its correlation data."""

    def __init__(self, port: int, reply_topic: str) -> None:
        self.reply_topic = reply_topic
        self.got = threading.Event()
        self.want = b""
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"req-{reply_topic}",
                                  protocol=paho.MQTTv5)
        self.client.on_message = self._on_message
        self.client.on_socket_open = no_delay
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(reply_topic, 1)
        self.client.loop_start()

    def _on_message(self, client: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
        props = getattr(msg, "properties", None)
        if getattr(props, "CorrelationData", None) == self.want:
            self.got.set()

    def ask(self, topic: str, payload: str, n: int) -> float:
        props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
        props.ResponseTopic = self.reply_topic
        self.want = props.CorrelationData = f"c{n}".encode()
        self.got.clear()
        started = time.perf_counter()
        self.client.publish(topic, payload, qos=1, properties=props)
        if not self.got.wait(10):
            raise TimeoutError(f"no answer to request {n}")
        return (time.perf_counter() - started) * 1000

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def echo_responder(port: int) -> paho.Client:
    """The baseline's other end: answers every request at once, with its correlation data."""
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="echo", protocol=paho.MQTTv5)

    def on_message(c: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
        props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
        props.CorrelationData = msg.properties.CorrelationData  # type: ignore[union-attr]
        c.publish(msg.properties.ResponseTopic, b'{"status":"ok"}', qos=1,  # type: ignore[union-attr]
                  properties=props)

    client.on_message = on_message
    client.on_socket_open = no_delay
    client.connect("127.0.0.1", port)
    client.subscribe("bench/echo", 1)
    client.loop_start()
    return client


def bench_commands(runner: DaemonRunner, broker: Mosquitto, n: int) -> None:
    config = base_config({"oven": fake_device({
        "oven_temp": {"name": "Oven temperature", "type": "float", "unit": "°C",
                      "params": {"value": 180.5}}})},
        node={"id": "bench", "name": "Bench"},
        mqtt={"host": "127.0.0.1", "port": broker.port, "command_role": "viewer"})
    d = runner.start(config)
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker")
    echo = echo_responder(broker.port)
    requester = Requester(broker.port, "bench/answers")
    try:
        for i in range(20):  # warm up both paths
            requester.ask("bench/echo", "ping", -i - 1)
            requester.ask(f"{B}/command", "read oven temperature", -i - 100)
        base = [requester.ask("bench/echo", "read oven temperature", i) for i in range(n)]
        over_mqtt = [requester.ask(f"{B}/command", "read oven temperature", i)
                     for i in range(n)]
        over_socket = []
        for _ in range(n):
            started = time.perf_counter()
            answer = d.request({"op": "ask", "text": "read oven temperature"})
            over_socket.append((time.perf_counter() - started) * 1000)
            assert answer["status"] == "ok", answer
    finally:
        requester.close()
        echo.disconnect()
        echo.loop_stop()
        d.terminate()
    print(f"1. command -> answer, {n} requests one at a time")
    base50 = pct(base, 0.5)
    row("baseline: bare paho request/response", base)
    row("hermesd ask over its control socket", over_socket, base50)
    row("hermesd ask over MQTT (response topic)", over_mqtt, base50)
    extra = pct(over_mqtt, 0.5) - pct(over_socket, 0.5)
    print(f"  MQTT adds {extra:.2f} ms to the same ask at p50 "
          f"({pct(over_mqtt, 0.5) - base50:.2f} ms beyond a bare round trip)")


# -- 2. state publishing ---------------------------------------------------------------------------


def count_until(port: int, prefix: str, n: int, start: Any) -> float:
    """Seconds from `start()` until a subscriber has received `n` messages under `prefix`."""
    got = 0
    done = threading.Event()

    def on_message(c: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
        nonlocal got
        got += 1
        if got >= n:
            done.set()

    sub = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"count-{prefix}",
                      protocol=paho.MQTTv5)
    sub.on_message = on_message
    sub.connect("127.0.0.1", port)
    sub.subscribe(f"{prefix}/#", 0)  # QoS 0 to the counter: the counter is not the bottleneck
    sub.loop_start()
    time.sleep(0.3)  # let the subscription settle before the clock starts
    started = time.perf_counter()
    start()
    if not done.wait(120):
        raise TimeoutError(f"only {got} of {n} messages arrived")
    elapsed = time.perf_counter() - started
    sub.disconnect()
    sub.loop_stop()
    return elapsed


def bare_publish(port: int, n: int) -> None:
    pub = paho.Client(CallbackAPIVersion.VERSION2, client_id="bare-pub", protocol=paho.MQTTv5)
    pub.max_inflight_messages_set(100)
    pub.connect("127.0.0.1", port)
    pub.loop_start()
    infos = [pub.publish(f"bare/p{i % 200}/state", f"{i * 0.5}", qos=1, retain=True)
             for i in range(n)]
    infos[-1].wait_for_publish(60)
    pub.disconnect()
    pub.loop_stop()


async def tool_publish(port: int, n: int, workdir: Path) -> float:
    """Rate of the mqtt tool alone, driven over its socket as the daemon drives it."""
    path = workdir / "tool.yaml"
    path.write_text(yaml.safe_dump({
        "node": {"id": "bench"}, "llm": {"enabled": False},
        "paths": {"state_dir": str(workdir / "tstate"), "runtime_dir": str(workdir / "trun")},
        "mqtt": {"host": "127.0.0.1", "port": port, "command_role": "viewer"}}))
    (workdir / "tstate").mkdir(exist_ok=True)
    spec = tool_specs(load_config(path))["mqtt"]
    sup = Supervisor(workdir / "trun", lambda tool, event: None)
    runner = asyncio.create_task(sup.run({"mqtt": spec}))
    await sup.started()
    await sup.wait_ready(20)
    link = sup.get("mqtt").connected()
    ctx = RequestContext.make("internal", "internal", timeout=60)
    for _ in range(400):  # the broker connection comes a moment after the tool starts
        if (await link.call("status", {}, ctx.for_tool(), 5))["connected"]:
            break
        await asyncio.sleep(0.05)
    batches = [[{"topic": f"{B}/p{(b * 500 + i) % 200}/state", "payload": f"{b * 500 + i}",
                 "retain": True, "qos": 1} for i in range(500)] for b in range(n // 500)]
    loop = asyncio.get_running_loop()

    async def send_all() -> None:
        for batch in batches:
            await link.call("publish", {"messages": batch}, ctx.for_tool(), 30)

    def start() -> None:
        asyncio.run_coroutine_threadsafe(send_all(), loop)

    elapsed = await asyncio.to_thread(count_until, port, B, len(batches) * 500, start)
    runner.cancel()
    await asyncio.gather(runner, return_exceptions=True)
    return elapsed


def bench_states(broker: Mosquitto, n: int, workdir: Path) -> None:
    n = max(500, n // 500 * 500)
    bare = count_until(broker.port, "bare", n, lambda: threading.Thread(
        target=bare_publish, args=(broker.port, n)).start())
    tool = asyncio.run(tool_publish(broker.port, n, workdir))
    print(f"2. state updates published (QoS 1, retained), {n} messages")
    print(f"  {'baseline: one bare paho client':<44} {n / bare:9.0f} msg/s")
    print(f"  {'the mqtt tool (publish action, batches of 500)':<44} {n / tool:9.0f} msg/s"
          f"  ({tool / bare:.2f}x the baseline's time)")


# -- 3. recovery after a broker restart ------------------------------------------------------------


def bare_recovery(broker: Mosquitto) -> float:
    ready = threading.Event()
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="bare-recover",
                         protocol=paho.MQTTv5)
    client.reconnect_delay_set(RECONNECT_MIN, RECONNECT_MAX)  # type: ignore[arg-type]

    def on_connect(c: paho.Client, u: Any, f: Any, rc: Any, p: Any) -> None:
        c.publish("bare/availability", "online", qos=1, retain=True)
        ready.set()

    client.on_connect = on_connect
    client.connect_async("127.0.0.1", broker.port)
    client.loop_start()
    ready.wait(10)
    ready.clear()
    broker.restart()
    back = time.perf_counter()
    while retained_snapshot(broker.port, ("bare/#",)).get("bare/availability") != b"online":
        pass
    elapsed = time.perf_counter() - back
    client.disconnect()
    client.loop_stop()
    return elapsed


def bench_recovery(runner: DaemonRunner, broker: Mosquitto, rounds: int) -> None:
    config = faked_plant(runner.tmp / "state3", runner.runtime / "run3", broker.port)
    d = runner.start(config)
    expected = set(all_configs(FAKED_DRIVERS))
    node = "hermesd/boiler-house-1/availability"

    def announced() -> bool:
        snap = retained_snapshot(broker.port, ("homeassistant/#", node))
        return expected <= set(snap) and snap.get(node) == b"online"

    d.wait_until(announced, what="the first announcement")
    ours, bare = [], []
    for _ in range(rounds):
        broker.restart()
        back = time.perf_counter()
        d.wait_until(announced, timeout=30, what="entities available again")
        ours.append(time.perf_counter() - back)
        bare.append(bare_recovery(broker))
    d.terminate()
    print(f"3. broker restart -> entities available again, {rounds} restarts (median)")
    print(f"  {'baseline: bare paho reconnect + 1 retained':<44} {statistics.median(bare):6.2f} s")
    print(f"  {'hermesd: all ' + str(len(expected)) + ' configs + online':<44} "
          f"{statistics.median(ours):6.2f} s  (+{statistics.median(ours) - statistics.median(bare):.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--states", type=int, default=20000)
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--broker-nagle", action="store_true",
                        help="leave Mosquitto's set_tcp_nodelay at its default (false)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hbench") as tmp:
        work = Path(tmp)
        runner = DaemonRunner(work)
        # the broker may queue without limit, so a slow counter never drops a message
        extra = "max_queued_messages 0\n" + ("" if args.broker_nagle else "set_tcp_nodelay true\n")
        broker = Mosquitto(work / "broker", extra=extra).start()
        try:
            print(f"mosquitto on 127.0.0.1:{broker.port} (set_tcp_nodelay "
                  f"{'false' if args.broker_nagle else 'true'}); {socket.gethostname()}")
            bench_commands(runner, broker, args.commands)
            bench_states(broker, args.states, work)
            bench_recovery(runner, broker, args.restarts)
        finally:
            runner.cleanup()
            broker.stop()


if __name__ == "__main__":
    main()
