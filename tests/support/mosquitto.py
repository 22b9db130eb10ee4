"""A real Mosquitto broker for tests, on a free loopback port, and a small MQTT test client.

`Mosquitto(workdir).start()` writes a config and runs `mosquitto -c` in the foreground; it is
ready when a TCP connect succeeds (a condition polled with a deadline; a bad config makes it exit
at once, and its log is shown). `user root` keeps a broker started as root from dropping to
`nobody`, who could not read the password and key files in the test's directory. `restart()`
keeps the port. `make_pki()` makes a throwaway CA, server and client certificate with openssl;
`make_password_file()` uses mosquitto_passwd.

`MqttClient` is a paho client on its own network thread that records every message it gets, so
a test waits for a condition on what arrived (`wait_for`), never for a fixed time.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from tests.support.ports import free_port
from tests.support.until import until_sync

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


class Mosquitto:
    def __init__(self, workdir: Path, *, port: int | None = None, extra: str = "",
                 persistence: bool = False) -> None:
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.conf = workdir / "mosquitto.conf"
        self.log_path = workdir / "mosquitto.log"
        lines = [f"listener {self.port} 127.0.0.1", "user root", "allow_anonymous true",
                 "log_dest stderr", "log_type all",
                 f"persistence {'true' if persistence else 'false'}"]
        if persistence:
            lines.append(f"persistence_location {workdir}/")
        self.conf.write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def start(self, timeout: float = 10.0) -> Mosquitto:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=log,
                                         stderr=subprocess.STDOUT)
        proc = self.proc

        def listening() -> bool:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return True
            except OSError:
                return False

        def gone() -> str | None:
            code = proc.poll()
            return None if code is None else f"mosquitto exited with {code}:\n{self.log}"

        try:
            until_sync(listening, timeout, "mosquitto to listen", gone=gone)
        except TimeoutError:
            raise TimeoutError(f"mosquitto did not listen in time:\n{self.log}") from None
        return self

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass(frozen=True)
class Pki:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def make_pki(directory: Path) -> Pki:
    """A CA, a server certificate for localhost/127.0.0.1 and a client certificate (CN agent)."""
    directory.mkdir(parents=True, exist_ok=True)

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj", "/CN=Test CA",
            "-keyout", "ca.key", "-out", "ca.crt")
    (directory / "server.ext").write_text(
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
        "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n")
    (directory / "client.ext").write_text(
        "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
        "extendedKeyUsage=clientAuth\n")
    for name, cn in (("server", "localhost"), ("client", "agent")):
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={cn}", "-keyout",
                f"{name}.key", "-out", f"{name}.csr")
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                "-CAcreateserial", "-days", "30", "-extfile", f"{name}.ext", "-out", f"{name}.crt")
    return Pki(directory / "ca.crt", directory / "server.crt", directory / "server.key",
               directory / "client.crt", directory / "client.key")


def make_password_file(path: Path, user: str, password: str) -> Path:
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(path), user, password], check=True,
                   capture_output=True)
    return path


def _no_delay(client: paho.Client, userdata: Any, sock: Any) -> None:
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


@dataclass(frozen=True)
class Received:
    topic: str
    payload: bytes
    retain: bool
    qos: int
    correlation: bytes | None
    at: float  # time.monotonic() when it arrived

    @property
    def text(self) -> str:
        return self.payload.decode()


class MqttClient:
    """A test's own MQTT client: subscribes on every connect, records what arrives."""

    def __init__(self, port: int, *, client_id: str, subscribe: tuple[str, ...] = ("#",),
                 v5: bool = True, username: str | None = None, password: str | None = None,
                 host: str = "127.0.0.1", clean: bool = True, no_delay: bool = False) -> None:
        self.port = port
        self.host = host
        self.subscribe_to = subscribe
        self.v5 = v5
        self.messages: list[Received] = []
        #: called on paho's thread for each message, e.g. to play a device that answers
        self.handlers: list[Callable[[MqttClient, Received], None]] = []
        self._lock = threading.Condition()
        self.connected = threading.Event()
        self.connects = 0
        if v5:
            self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                      protocol=paho.MQTTv5)
        else:
            # clean=False: a session the broker keeps (and queues for) while we are away
            self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                      protocol=paho.MQTTv311, clean_session=clean)
        if username is not None:
            self.client.username_pw_set(username, password)
        self.client.reconnect_delay_set(1, 1)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        if no_delay:  # for request after request: else each waits ~40 ms for a delayed ACK
            self.client.on_socket_open = _no_delay

    def start(self, timeout: float = 10.0) -> MqttClient:
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()
        if not self.connected.wait(timeout):
            self.stop()
            raise TimeoutError(f"test client could not connect to port {self.port}")
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def __enter__(self) -> MqttClient:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, reason: ReasonCode,
                    properties: Any) -> None:
        if reason.is_failure:
            return
        self.connects += 1
        if self.subscribe_to:  # connected once the broker has taken the subscriptions
            client.subscribe([(t, 1) for t in self.subscribe_to])
        else:
            self.connected.set()

    def _on_subscribe(self, client: paho.Client, userdata: Any, mid: int,
                      reasons: list[ReasonCode], properties: Any) -> None:
        self.connected.set()

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any, reason: ReasonCode,
                       properties: Any) -> None:
        self.connected.clear()

    def _on_message(self, client: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
        props = getattr(msg, "properties", None)
        correlation = getattr(props, "CorrelationData", None) if props is not None else None
        received = Received(msg.topic, bytes(msg.payload), bool(msg.retain), msg.qos,
                            correlation, time.monotonic())
        with self._lock:
            self.messages.append(received)
            self._lock.notify_all()
        for handler in self.handlers:
            handler(self, received)

    # -- publishing --------------------------------------------------------------------------

    def publish(self, topic: str, payload: str | bytes, *, qos: int = 1, retain: bool = False,
                response_topic: str | None = None, correlation: bytes | None = None,
                wait: bool = True) -> None:
        props = None
        if self.v5 and (response_topic is not None or correlation is not None):
            props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
            if response_topic is not None:
                props.ResponseTopic = response_topic
            if correlation is not None:
                props.CorrelationData = correlation
        info = self.client.publish(topic, payload, qos=qos, retain=retain, properties=props)
        if wait and qos > 0:
            info.wait_for_publish(10)

    # -- what arrived ----------------------------------------------------------------------------

    def wait_for(self, predicate: Callable[[list[Received]], Any], timeout: float = 10.0,
                 what: str = "a message") -> Any:
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                result = predicate(list(self.messages))
                if result:
                    return result
                left = deadline - time.monotonic()
                if left <= 0:
                    shown = [(m.topic, m.payload[:80]) for m in self.messages[-15:]]
                    raise TimeoutError(f"timed out waiting for {what}; last messages: {shown}")
                self._lock.wait(min(left, 0.1))

    def on(self, topic: str) -> list[Received]:
        with self._lock:
            return [m for m in self.messages if m.topic == topic]

    def last(self, topic: str) -> Received | None:
        got = self.on(topic)
        return got[-1] if got else None

    def wait_topic(self, topic: str, predicate: Callable[[Received], bool] = lambda m: True,
                   timeout: float = 10.0, after: float = 0.0) -> Received:
        def check(messages: list[Received]) -> Received | None:
            for m in reversed(messages):
                if m.topic == topic and m.at >= after and predicate(m):
                    return m
            return None
        return self.wait_for(check, timeout, what=f"a message on {topic}")  # type: ignore[no-any-return]

    def clear(self) -> None:
        with self._lock:
            self.messages.clear()


def retained_snapshot(port: int, filters: tuple[str, ...], *, timeout: float = 10.0,
                      **client_kw: Any) -> dict[str, bytes]:
    """The retained messages under `filters`, as a fresh subscriber gets them.

    The broker sends retained messages right when it takes the subscription, before anything
    published afterwards on the same connection; so once our own marker message comes back,
    every retained message has arrived.
    """
    marker = f"hermesd-test/marker/{time.monotonic_ns()}"
    with MqttClient(port, client_id=f"snap-{time.monotonic_ns()}",
                    subscribe=(*filters, marker), **client_kw) as c:
        c.publish(marker, b"end")
        c.wait_topic(marker, timeout=timeout)
        return {m.topic: m.payload for m in c.messages if m.retain and m.topic != marker}
