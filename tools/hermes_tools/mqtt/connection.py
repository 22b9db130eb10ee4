"""One broker connection, run by paho-mqtt inside the tool's event loop.

paho has no asyncio API, but it can be driven by any loop: its socket is watched by the event
loop (`loop_read` when it is readable, `loop_write` when paho has something to send and the
socket takes it, `loop_misc` each second for keepalive), so a burst of publishes goes out in
one write and their acknowledgements come in without a thread, a wake-up pipe or a hop between
threads (paho's own thread cost as much CPU as the rest of the tool). Only connecting blocks
(DNS, TCP, TLS handshake): each connect runs in a worker thread, and `_keep_connected`
reconnects with a capped exponential backoff. The callbacks never raise. On every connect the
subscriptions are made afresh (a broker restart forgets them), and only once the broker has
acknowledged them is the birth `online` published and the connection called ready: `online`
means "ready for commands". The last will is `offline`, retained, on the same topic.

Request topics (commands, writes, presses) are subscribed `live_only`: on MQTT 5 with retain
handling 2, so the broker does not send their retained messages at subscribe time, and without
"retain as published", so every live message arrives with the retain flag 0 and a retain flag 1
always means "from the broker's store". MQTT 3.1.1 has no such option (the broker sets the flag
on stored messages only); the tool checks the flag on both versions and never acts on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt import properties as paho_properties
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode
from paho.mqtt.exception import MalformedPacket
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from hermes_tools.mqtt.inbound import Incoming
from hermesd.core.errors import ErrorCode, ToolError
from hermesd.core.settings.mqtt import BrokerSettings, BrokerTls

log = logging.getLogger(__name__)

RECONNECT_MIN = 0.5  # seconds before the first reconnect attempt; doubles per failure ...
RECONNECT_MAX = 15.0  # ... up to this cap
MAX_INFLIGHT = 100  # QoS 1 messages awaiting PUBACK at once (paho's default of 20 throttles)
STOP_WAIT = 0.5  # seconds a clean stop waits for `offline` to be acknowledged
MISC_EVERY = 1.0  # seconds between paho's keepalive checks (what its own thread did)
#: the largest packet the broker may send us (MQTT 5; it drops larger ones): far above any
#: request (refused past 4 KiB) or state we take, far below what would strain the tool's memory
MAX_PACKET = 1 << 20
#: messages handed to paho and not yet written (QoS 0) or acknowledged (QoS 1) past which new
#: ones are refused: a broker that stops reading (but answers pings, or has not missed one yet)
#: must not grow the tool's memory without bound; far above any burst a healthy link takes
#: (the announcements of every entity at connect)
MAX_WAITING = 10_000
ONLINE, OFFLINE = "online", "offline"


@dataclass(frozen=True, slots=True)
class Subscription:
    qos: int
    #: requests: never the broker's retained copy (MQTT 5 retain handling 2)
    live_only: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything that, when changed, needs a new connection."""

    host: str
    port: int
    protocol: str  # "5" | "3.1.1"
    client_id: str
    keepalive: int
    will_topic: str  # B/N/availability
    username: str | None = None
    password_file: str | None = None  # read at connect time; the secret never travels
    tls: BrokerTls | None = None

    @classmethod
    def of(cls, broker: BrokerSettings) -> Settings:
        """The connection settings of the broker the daemon names; its will is the node's
        availability topic."""
        return cls(host=broker.host, port=broker.port, protocol=broker.protocol,
                   client_id=broker.client_id, keepalive=max(5, int(broker.keepalive)),
                   will_topic=broker.topics.names.availability, username=broker.username,
                   password_file=broker.password_file, tls=broker.tls)

    @property
    def broker(self) -> str:
        return f"{self.host}:{self.port}"


def _read_utf(buffer: bytes, maxlen: int) -> tuple[str, int]:
    """paho's `readUTF` (MQTT 5 string properties) without its refusal of U+FEFF and NUL.

    paho treats a response topic, content type or user property holding U+FEFF as a malformed
    packet and drops the whole connection, though MQTT allows it (5.0 §1.5.4: it "MUST NOT be
    skipped over or stripped off"); a careless broker may pass on NUL too. So one message from
    anyone who may publish would disconnect the tool, lose what was in flight, and could do so
    again and again. The tool judges the strings it uses itself (a response topic holding NUL
    is refused, and answered) and ignores the rest. Text that is not UTF-8 stays malformed.
    """
    if maxlen < 2:
        raise MalformedPacket("Not enough data to read string length")
    length = paho_properties.readInt16(buffer)  # type: ignore[no-untyped-call]
    if length > maxlen - 2:
        raise MalformedPacket("Length delimited string too long")
    try:
        text = bytes(buffer[2:2 + length]).decode("utf-8")  # strict: no surrogates either
    except UnicodeDecodeError as exc:
        raise MalformedPacket(f"a string property is not UTF-8: {exc.reason}") from None
    return text, length + 2


paho_properties.readUTF = _read_utf  # paho looks it up at each call: every client takes it


def _no_delay(client: paho.Client, userdata: Any, sock: Any) -> None:
    """Send small packets at once: an answer must not wait ~40 ms for Nagle's algorithm."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def read_password(path: str) -> str:
    """The first line of the password file; ToolError naming the file if it cannot be had."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ToolError(ErrorCode.BAD_REQUEST,
                        f"cannot read mqtt.password_file {path}: {getattr(exc, 'strerror', None) or exc}"
                        ) from None
    if not lines or not lines[0]:
        raise ToolError(ErrorCode.BAD_REQUEST, f"mqtt.password_file {path} is empty")
    return lines[0]


class Connection:
    """The broker link. `ready` is true between a completed connect and the next loss."""

    def __init__(self, settings: Settings, *,
                 on_message: Callable[[Incoming], None],
                 on_state: Callable[[bool, str], None],
                 on_published: Callable[[int], None]) -> None:
        self.settings = settings
        self._on_message = on_message
        self._on_state = on_state
        self._on_published = on_published
        #: mids the broker has acknowledged, handled at the loop's next turn all at once
        self._acked: list[int] = []
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._subs: tuple[tuple[str, Subscription], ...] = ()
        self._client: paho.Client | None = None
        self._connect_mid: int | None = None
        self._refused = False  # the broker refused the last connect
        self._stopping = False
        self._watched: socket.socket | None = None  # the socket the loop reads
        self._writing = False  # ... and writes
        self._closed: asyncio.Event = asyncio.Event()  # the watched socket was closed
        self._keeper: asyncio.Task[None] | None = None
        self._connecting = False
        self._misc: asyncio.TimerHandle | None = None
        self._suback_due: asyncio.TimerHandle | None = None
        self._too_large = 0  # the size of a packet the broker announced past MAX_PACKET
        self.ready = False
        #: why the last refused publish was refused ("" while the broker takes what it gets)
        self.not_sent = ""
        self.reason = "not connected yet"
        self.connects = 0

    @property
    def v5(self) -> bool:
        return self.settings.protocol == "5"

    # -- lifecycle -----------------------------------------------------------------------------

    def start(self, subscriptions: dict[str, Subscription]) -> None:
        """Build the client and start connecting (and reconnecting after each loss)."""
        s = self.settings
        self._subs = tuple(sorted(subscriptions.items()))
        if self.v5:
            client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                                 client_id=s.client_id, protocol=paho.MQTTv5)
        else:  # no session at the broker: nothing queued while away is run at a surprise time
            client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                                 client_id=s.client_id, protocol=paho.MQTTv311,
                                 clean_session=True)
        if s.username is not None:
            client.username_pw_set(s.username,
                                   read_password(s.password_file) if s.password_file else None)
        if s.tls is not None:
            try:
                client.tls_set(ca_certs=s.tls.ca, certfile=s.tls.cert, keyfile=s.tls.key,
                               cert_reqs=ssl.CERT_REQUIRED)
            except (OSError, ssl.SSLError, ValueError) as exc:
                raise ToolError(ErrorCode.BAD_REQUEST, f"cannot use the MQTT TLS files: {exc}") \
                    from None
            if s.tls.insecure:
                client.tls_insecure_set(True)
        client.will_set(s.will_topic, OFFLINE, qos=1, retain=True)
        client.max_inflight_messages_set(MAX_INFLIGHT)
        client.on_socket_open = self._paho_socket_open
        client.on_socket_close = self._paho_socket_close
        client.on_socket_register_write = self._paho_register_write
        client.on_socket_unregister_write = self._paho_unregister_write
        client.on_connect = self._paho_connect
        client.on_disconnect = self._paho_disconnect
        client.on_subscribe = self._paho_subscribe
        client.on_message = self._paho_message
        client.on_publish = self._paho_publish
        self._guard_packet_size(client)
        self._client = client
        props = None
        if self.v5:
            props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
            props.MaximumPacketSize = MAX_PACKET
        client.connect_async(s.host, s.port, keepalive=s.keepalive, properties=props)
        self._keeper = asyncio.create_task(self._keep_connected(client), name="mqtt-connect")
        self._misc = self._loop.call_later(MISC_EVERY, self._tick, client)

    async def stop(self, also_offline: tuple[str, ...] = ()) -> None:
        """Say `offline` (when connected) on the will topic and on `also_offline`, disconnect,
        and stop reconnecting."""
        client, self._client = self._client, None
        if client is None:
            return
        self._stopping = True
        if self.ready:
            infos = [client.publish(topic, OFFLINE, qos=1, retain=True)
                     for topic in (*also_offline, self.settings.will_topic)]
            await asyncio.to_thread(_wait_published, infos, STOP_WAIT)
        self.ready = False
        keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.cancel()
            await asyncio.gather(keeper, return_exceptions=True)
        if self._watched is not None:  # DISCONNECT is written, then paho closes the socket
            client.disconnect()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(STOP_WAIT):
                    await self._closed.wait()
        for timer in (self._misc, self._suback_due):
            if timer is not None:
                timer.cancel()
        self._unwatch()
        _close_socket(client)

    # -- what the tool uses ----------------------------------------------------------------------

    def subscriptions(self, wanted: dict[str, Subscription]) -> None:
        """Change the subscriptions; applied now when connected, and on every connect."""
        old = dict(self._subs)
        self._subs = tuple(sorted(wanted.items()))
        client = self._client
        if client is None or not self.ready:
            return
        gone = [t for t in old if t not in wanted]
        new = {t: q for t, q in wanted.items() if old.get(t) != q}
        if gone:
            client.unsubscribe(gone)
        if new:
            client.subscribe(self._sub_list(tuple(new.items())))

    def publish(self, topic: str, payload: bytes | str, *, qos: int = 1, retain: bool = False,
                correlation: bytes | None = None, content_type: str | None = None,
                expiry: int | None = None) -> int | None:
        """Hand a message to paho; its mid, or None when not connected (nothing was queued)."""
        client = self._client
        if client is None or not self.ready:
            self.not_sent = f"not connected to the broker ({self.reason})"
            return None
        waiting = _waiting(client)
        if waiting >= MAX_WAITING:
            if not self.not_sent.startswith("the broker"):
                log.warning("the broker at %s is not taking messages (%d waiting): new ones "
                            "are dropped until it does", self.settings.broker, waiting)
            self.not_sent = (f"the broker at {self.settings.broker} is not taking messages "
                             f"({waiting} waiting)")
            return None
        if self.not_sent:
            if self.not_sent.startswith("the broker"):
                log.info("the broker at %s takes messages again", self.settings.broker)
            self.not_sent = ""
        props = None
        if self.v5 and (correlation is not None or content_type or expiry):
            props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
            if correlation is not None:
                props.CorrelationData = correlation
            if content_type:
                props.ContentType = content_type
            if expiry:
                props.MessageExpiryInterval = expiry
        info = client.publish(topic, payload, qos=qos, retain=retain, properties=props)
        if info.rc not in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_NO_CONN):
            log.warning("publish to %s failed: %s", topic, paho.error_string(info.rc))
            return None
        # NO_CONN: paho keeps a QoS 1 message and sends it after the reconnect
        return info.mid

    # -- driving paho from the event loop ----------------------------------------------------

    async def _keep_connected(self, client: paho.Client) -> None:
        """Connect, and connect again after each loss: RECONNECT_MIN after a connection that
        was up, doubling up to RECONNECT_MAX while tries fail (paho's own backoff)."""
        delay = RECONNECT_MIN
        while True:
            self._closed.clear()
            self._too_large = 0
            before = self.connects
            connecting = asyncio.ensure_future(asyncio.to_thread(_connect, client))
            self._connecting = True
            try:
                await asyncio.shield(connecting)
            except asyncio.CancelledError:
                # the connect goes on in its thread: wait for it (paho bounds it), and close
                # what it opened, so no stray session takes this client id from a newer one
                with contextlib.suppress(Exception):
                    await connecting
                # (closed without paho's callbacks: the loop must stop watching it first, or a
                # DISCONNECT at the stop asks the selector to write to a closed socket)
                self._unwatch()
                _close_socket(client)
                raise
            except Exception as exc:  # OSError, ssl.SSLError, a name that does not resolve
                log.debug("connecting to %s failed: %s", self.settings.broker, exc)
                self._state(False, f"cannot reach the broker at {self.settings.broker}: "
                                   f"{_why(exc)}")
            else:
                self._connecting = False
                await self._closed.wait()
            finally:
                self._connecting = False
            if self.connects > before and not self._too_large:
                delay = RECONNECT_MIN  # (a broker that sends a huge message sends it again)
            await asyncio.sleep(delay)
            delay = min(RECONNECT_MAX, delay * 2)

    def _tick(self, client: paho.Client) -> None:
        """paho's keepalive: a ping when due, a connection given up when its answer is late."""
        if self._stopping:
            return
        if not self._connecting:  # paho's connect (in its thread) owns the client meanwhile
            with contextlib.suppress(Exception):
                client.loop_misc()
        self._misc = self._loop.call_later(MISC_EVERY, self._tick, client)

    def _guard_packet_size(self, client: paho.Client) -> None:
        """Refuse a packet larger than MAX_PACKET before reading its body.

        MQTT 5 asks the broker not to send one, but MQTT 3.1.1 cannot ask and a broker may not
        care: paho would read all of it (up to 256 MiB) into memory, and hold the loop while
        it copies. paho reads a packet's body with one `_sock_recv(remaining length)` (its
        header a byte at a time), so a larger request means a packet too large: the connection
        is given up as a broken one (MQTT 5 §3.1.2.11.4: "Packet too large" is a protocol error),
        before a byte of the body is read.
        """
        recv = client._sock_recv

        def sock_recv(bufsize: int) -> bytes:
            if bufsize > MAX_PACKET:
                self._too_large = bufsize
                raise ConnectionAbortedError(f"a packet of {bufsize} bytes")
            return recv(bufsize)

        client._sock_recv = sock_recv  # type: ignore[method-assign]

    def _in_loop(self, fn: Callable[..., None], *args: Any) -> None:
        """Run `fn` in the event loop: now when called there, else at its next turn (paho calls
        the socket callbacks from the connecting thread too)."""
        if threading.get_ident() == self._loop_thread:
            fn(*args)
        else:
            with contextlib.suppress(RuntimeError):  # the loop is closed: we are shutting down
                self._loop.call_soon_threadsafe(fn, *args)

    def _hop(self, fn: Callable[..., None], *args: Any) -> None:
        """Run `fn` at the loop's next turn, outside paho's packet handling (which called us)."""
        if threading.get_ident() == self._loop_thread:
            self._loop.call_soon(fn, *args)
        else:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(fn, *args)

    def _paho_socket_open(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        _no_delay(client, userdata, sock)
        self._in_loop(self._watch, client, sock)

    def _paho_socket_close(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        self._in_loop(self._unwatch, sock)

    def _paho_register_write(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        self._in_loop(self._want_write, client, sock)

    def _paho_unregister_write(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        self._in_loop(self._done_writing, sock)

    def _watch(self, client: paho.Client, sock: socket.socket) -> None:
        if self._stopping or client.socket() is not sock or sock.fileno() < 0:
            return  # closed (or replaced) before this turn of the loop
        self._watched = sock
        self._loop.add_reader(sock, self._readable, client, sock)
        if client.want_write():
            self._want_write(client, sock)

    @staticmethod
    def _readable(client: paho.Client, sock: socket.socket) -> None:
        client.loop_read()
        tls = sock if isinstance(sock, ssl.SSLSocket) else None
        # TLS may hold decrypted bytes the socket no longer signals: read them now
        while tls is not None and tls.pending() and client.socket() is sock:
            client.loop_read()

    def _want_write(self, client: paho.Client, sock: socket.socket) -> None:
        if sock is self._watched and not self._writing:
            try:
                self._loop.add_writer(sock, _write_corked, client, sock)
            except (OSError, ValueError):
                # closed under us (by a thread, or without paho's callbacks): nothing to write
                # to, and nothing to watch any more
                self._unwatch(sock)
                return
            self._writing = True

    def _done_writing(self, sock: socket.socket) -> None:
        if sock is self._watched and self._writing:
            self._writing = False
            with contextlib.suppress(ValueError, OSError):  # already closed
                self._loop.remove_writer(sock)

    def _unwatch(self, sock: socket.socket | None = None) -> None:
        watched = self._watched
        if watched is None or (sock is not None and sock is not watched):
            return
        self._done_writing(watched)
        with contextlib.suppress(ValueError, OSError):  # already closed
            self._loop.remove_reader(watched)
        self._watched = None
        self._closed.set()

    def _sub_list(self, subs: tuple[tuple[str, Subscription], ...]
                  ) -> list[tuple[str, SubscribeOptions]] | list[tuple[str, int]]:
        if not self.v5:
            return [(topic, sub.qos) for topic, sub in subs]
        # noLocal: never receive our own publishes back, e.g. on a device topic that is both
        # its state and its command topic; retainAsPublished off: a live message always has
        # the retain flag 0, so a 1 can only be a stored copy
        return [(topic, SubscribeOptions(
            qos=sub.qos, noLocal=True, retainAsPublished=False,
            retainHandling=SubscribeOptions.RETAIN_DO_NOT_SEND if sub.live_only
            else SubscribeOptions.RETAIN_SEND_ON_SUBSCRIBE)) for topic, sub in subs]

    def _paho_connect(self, client: paho.Client, userdata: Any, flags: Any,
                      reason: ReasonCode, properties: Any) -> None:
        try:
            self._refused = reason.is_failure
            if reason.is_failure:
                self._hop(self._state, False, f"the broker refused the connection: {reason}")
                return
            subs = self._subs
            if subs:
                _, mid = client.subscribe(self._sub_list(subs))
                self._connect_mid = mid
                self._in_loop(self._expect_suback, client, mid)
            else:
                self._birth(client)
        except Exception:
            log.exception("on_connect failed")

    def _expect_suback(self, client: paho.Client, mid: int) -> None:
        if self._suback_due is not None:
            self._suback_due.cancel()
        self._suback_due = self._loop.call_later(self.settings.keepalive, self._suback_late,
                                                 client, mid, client.socket())

    def _suback_late(self, client: paho.Client, mid: int, sock: Any) -> None:
        """A broker that answers pings but never the SUBSCRIBE would keep the tool not ready,
        silent and not trying again: a keepalive period is as long as it gets."""
        self._suback_due = None
        if self._stopping or self._connect_mid != mid or sock is None or client.socket() is not sock:
            return
        self._connect_mid = None
        why = (f"the broker did not acknowledge the subscriptions within "
               f"{self.settings.keepalive:g} s")
        log.warning("%s: connecting again", why)
        self._state(False, why)
        client._sock_close()  # paho's own close (and ours, through on_socket_close): no DISCONNECT

    def _paho_subscribe(self, client: paho.Client, userdata: Any, mid: int,
                        reasons: list[ReasonCode], properties: Any) -> None:
        try:
            refused = [str(r) for r in reasons if r.is_failure]
            if refused:
                log.warning("the broker refused %d subscription(s): %s", len(refused),
                            ", ".join(sorted(set(refused))))
            if mid == self._connect_mid:
                self._connect_mid = None
                self._birth(client)
        except Exception:
            log.exception("on_subscribe failed")

    def _birth(self, client: paho.Client) -> None:
        client.publish(self.settings.will_topic, ONLINE, qos=1, retain=True)
        self._hop(self._state, True, "")

    def _paho_disconnect(self, client: paho.Client, userdata: Any, flags: Any,
                         reason: ReasonCode, properties: Any) -> None:
        if self._too_large:
            log.warning("the broker at %s sent a packet of %d bytes, more than the %d the "
                        "tool takes: connection given up", self.settings.broker,
                        self._too_large, MAX_PACKET)
            self._hop(self._state, False, f"connection lost: the broker sent a packet too large "
                                          f"({self._too_large / (1 << 20):.1f} MiB, at most "
                                          f"{MAX_PACKET / (1 << 20):g} MiB taken)")
        elif not self._refused:  # after a refusal, the refusal is the reason worth showing
            self._hop(self._state, False, f"connection lost ({reason})")

    def _paho_message(self, client: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
        try:
            props = getattr(msg, "properties", None)
            response = getattr(props, "ResponseTopic", None) if props is not None else None
            correlation = getattr(props, "CorrelationData", None) if props is not None else None
            incoming = Incoming(topic=msg.topic, payload=bytes(msg.payload), qos=msg.qos,
                                retain=bool(msg.retain), dup=bool(msg.dup),
                                response_topic=response if isinstance(response, str) else None,
                                correlation=bytes(correlation)
                                if isinstance(correlation, bytes | bytearray) else None)
        except Exception:  # e.g. a topic that is not UTF-8
            log.warning("dropped a message paho could not decode", exc_info=True)
            return
        self._hop(self._on_message, incoming)

    def _paho_publish(self, client: paho.Client, userdata: Any, mid: int, reason: ReasonCode,
                      properties: Any) -> None:
        self._acked.append(mid)
        if len(self._acked) == 1:  # later ones join this turn until the loop has taken the list
            self._hop(self._published)

    # -- back in the event loop ------------------------------------------------------------------

    def _published(self) -> None:
        mids, self._acked = self._acked, []
        for mid in mids:
            try:
                self._on_published(mid)
            except Exception:  # one bad acknowledgement must not lose the others
                log.exception("handling the acknowledgement of message %d failed", mid)

    def _state(self, ready: bool, reason: str) -> None:
        if self._stopping:
            return
        if ready:
            self.connects += 1
        changed = ready != self.ready or reason != self.reason
        self.ready = ready
        self.reason = reason
        if changed or ready:
            self._on_state(ready, reason)


def _write_corked(client: paho.Client, sock: socket.socket) -> None:
    """paho's `loop_write`, its packets leaving in as few TCP segments as they fit.

    paho sends each queued packet with a send() of its own, and with TCP_NODELAY each goes out
    as a segment of its own: a batch of states woke the broker once per message, and its
    acknowledgements came back one wake-up each (bridge bench: ~9 preemptions of the tool per
    poll). Corked for the batch, uncorked at its end (which sends what is left at once): no
    packet waits longer than this call, and what paho is told was sent is unchanged. A socket
    that cannot be corked (not TCP) is written as before."""
    corked = _cork(sock, 1)
    try:
        client.loop_write()
    finally:
        if corked:
            _cork(sock, 0)


def _cork(sock: Any, on: int) -> bool:
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, on)
    except (OSError, AttributeError):  # closed meanwhile, or no TCP socket
        return False
    return True


def _waiting(client: paho.Client) -> int:
    """How many messages paho holds: packets not yet written, QoS 1 messages not acknowledged."""
    return len(getattr(client, "_out_packet", ())) + len(getattr(client, "_out_messages", ()))


def _why(exc: Exception) -> str:
    """Why a connect failed, in the words an operator acts on: a certificate is not the same
    fix as a broker that is down or a name that does not resolve."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"its TLS certificate is not trusted ({exc.verify_message})"
    if isinstance(exc, ssl.SSLError):
        return f"TLS failed ({exc.reason or exc})"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def _connect(client: paho.Client) -> None:
    """paho's blocking connect (in a worker thread), closing what a failed one leaves open."""
    try:
        client.reconnect()
    except BaseException as exc:
        _close_left_open(exc)
        raise


def _close_left_open(exc: BaseException) -> None:
    """Close the sockets a failed connect left to the garbage collector: paho does not close
    the TLS socket whose handshake failed or timed out, and the exception (kept by the connect's
    future until the next try) held it open up to RECONNECT_MAX seconds. Called where the
    exception is caught, in the connecting thread: further on, asyncio keeps its traceback but
    not the frames of the thread, whose locals hold the socket."""
    tb = exc.__traceback__
    while tb is not None:  # the frames of the connect: paho's locals, never the client's socket
        for value in list(tb.tb_frame.f_locals.values()):
            if isinstance(value, socket.socket):
                with contextlib.suppress(OSError):
                    value.close()
        tb = tb.tb_next


def _close_socket(client: paho.Client) -> None:
    """Close a client's socket that will not be used again (paho has no call that only does
    that; `disconnect` first sends DISCONNECT, which needs the loop)."""
    sock = client.socket()
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.close()


def _wait_published(infos: list[paho.MQTTMessageInfo], timeout: float) -> None:
    """Wait until the broker has every one of these messages, `timeout` seconds in all."""
    deadline = time.monotonic() + timeout
    for info in infos:
        with contextlib.suppress(RuntimeError, ValueError):
            info.wait_for_publish(max(0.0, deadline - time.monotonic()))
