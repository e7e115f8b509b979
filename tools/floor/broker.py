"""The MQTT broker the gateway publishes into: a URL, an embedded one, or a Mosquitto of our own.

    mqtt://HOST:PORT      an existing broker (the floor's; Mosquitto in production)
    embedded              an in-process amqtt broker on a loopback port (a laptop, the tests)
    mosquitto             a `mosquitto` started here on a free loopback port with a generated
                          config (persistence on, no queue limit): tests and `simulate`

Both brokers started here can be restarted while a run goes on (`restart()`):
Mosquitto really stops (SIGTERM: it saves its sessions and queued messages to
its persistence file) and starts again from that file; the embedded broker
stops listening for the outage and drops every connection but the ones named
to keep (the in-process consumer's: amqtt 0.12 drops the QoS 1 messages in
flight to a subscriber whose connection goes, and queues none for an
anonymous offline session, amqtt/broker.py _run_broadcast), so on the
embedded broker a restart tests the gateway's half of the path; Mosquitto's
restart tests the whole of it.
"""
import asyncio
import logging
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from urllib.parse import urlsplit

DEFAULT_PORT = 1883
_START_TIMEOUT_S = 10.0


class BrokerError(Exception):
    """A broker URL that is not one, or a broker that would not start."""


def parse_url(url, others=(), label=None):
    """mqtt://HOST[:PORT] -> (host, port); BrokerError for anything else. others: what the command takes
    besides a URL ("embedded", ...), for the message; label: what the message calls it (the option)."""
    label = label or "broker %r" % url
    parts = urlsplit(url)
    if parts.scheme != "mqtt" or not parts.hostname:
        raise BrokerError("%s: expected mqtt://HOST:PORT%s" % (label, "".join([" or %r" % o for o in others])))
    try:
        port = parts.port
    except ValueError:               # not a number, or past 65535
        port = 0
    if port is None:
        return parts.hostname, DEFAULT_PORT
    if not 1 <= port <= 65535:       # 0 was taken as "none": the default port, without a word
        raise BrokerError("%s: the port must be a number 1..65535" % label)
    return parts.hostname, port


def free_port(host="127.0.0.1"):
    """A TCP port nobody listens on right now (loopback)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def wait_listening(host, port, timeout_s=_START_TIMEOUT_S):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


class EmbeddedBroker:
    """amqtt's broker on its own event loop in a thread: start(), url, restart(down_s), stop()."""

    def __init__(self, host="127.0.0.1", port=None):
        self.host = host
        self.port = port if port is not None else free_port(host)
        self.url = "mqtt://%s:%d" % (self.host, self.port)
        self.restarts = 0
        self._loop = None
        self._thread = None
        self._broker = None
        self._writers = set()

    def start(self):
        for name in ("amqtt", "transitions", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)   # its own log lines are not ours to print
        ready = threading.Event()
        failure = []

        def run():
            self._loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self._loop)
            try:
                self._loop.run_until_complete(self._start())
            except Exception as exc:            # reported to start()'s caller below
                failure.append(exc)
                ready.set()
                return
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="embedded-broker", daemon=True)
        self._thread.start()
        ready.wait(_START_TIMEOUT_S)
        if failure or not ready.is_set():
            raise BrokerError("the embedded broker did not start on %s: %s" % (self.url, failure or "timeout"))
        return self

    async def _start(self):
        from amqtt.broker import Broker

        outer = self

        class _Tracked(Broker):
            # Its clients' connections, so an outage can drop them as a restart would.
            async def stream_connected(self, reader, writer, listener_name):
                outer._writers.add(writer)
                try:
                    await super().stream_connected(reader, writer, listener_name)
                finally:
                    outer._writers.discard(writer)

        config = {
            "listeners": {"default": {"type": "tcp", "bind": "%s:%d" % (self.host, self.port)}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }
        self._broker = _Tracked(config)
        await self._broker.start()

    def _call(self, coro, timeout_s=_START_TIMEOUT_S):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout_s)

    def restart(self, down_s=0.5, keep_ports=()):
        """Stop listening and drop every client but those whose local TCP port is in keep_ports,
        for down_s; then listen again."""
        self._call(self._outage(down_s, keep_ports), timeout_s=down_s + _START_TIMEOUT_S)
        self.restarts += 1

    async def _outage(self, down_s, keep_ports):
        for server in self._broker._servers.values():
            server.instance.close()          # not wait_closed(): the kept connections stay open
        for writer in list(self._writers):
            peer = writer.get_extra_info("peername")
            if not peer or peer[1] not in keep_ports:
                writer.transport.abort()
        await asyncio.sleep(down_s)
        await self._broker._start_listeners()

    def stop(self):
        if self._loop is None:
            return
        try:
            self._call(self._broker.shutdown())
        except Exception:                    # already going: stopping is all that is left to do
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(_START_TIMEOUT_S)
        self._loop = None


def mosquitto_binary():
    """The mosquitto executable (PATH, then /usr/sbin where Debian puts it), or None."""
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


class Mosquitto:
    """A mosquitto of our own on a free loopback port, with persistence in a temporary directory."""

    def __init__(self, host="127.0.0.1", port=None):
        self.binary = mosquitto_binary()
        if self.binary is None:
            raise BrokerError("no mosquitto binary (Debian: apt-get install mosquitto)")
        self.host = host
        self.port = port if port is not None else free_port(host)
        self.url = "mqtt://%s:%d" % (self.host, self.port)
        self.restarts = 0
        self.dir = tempfile.mkdtemp(prefix="floor-mosquitto-")
        self.config = os.path.join(self.dir, "mosquitto.conf")
        with open(self.config, "w") as f:
            f.write("listener %d %s\n" % (self.port, self.host))
            f.write("allow_anonymous true\n")
            # Started as root it would switch to the user "mosquitto", who cannot write here.
            f.write("user %s\n" % pwd.getpwuid(os.getuid()).pw_name)
            f.write("persistence true\n")
            f.write("persistence_location %s/\n" % self.dir)
            f.write("max_queued_messages 0\n")       # a consumer away for a restart: keep all it missed
            f.write("max_inflight_messages 100\n")
            f.write("set_tcp_nodelay true\n")
            f.write("log_dest file %s/mosquitto.log\n" % self.dir)
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([self.binary, "-c", self.config], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_listening(self.host, self.port):
            self.stop()
            raise BrokerError("mosquitto did not listen on %s (log: %s/mosquitto.log)" % (self.url, self.dir))
        return self

    def restart(self, down_s=0.5, keep_ports=()):
        """Stop it (SIGTERM: it writes its persistence file), wait down_s, start it again from that file."""
        self._terminate()
        time.sleep(down_s)
        self.start()
        self.restarts += 1

    def _terminate(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(_START_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def stop(self):
        self._terminate()
        if not os.environ.get("FLOOR_KEEP"):
            shutil.rmtree(self.dir, ignore_errors=True)


def start_broker(spec):
    """'embedded', 'mosquitto' or mqtt://HOST:PORT -> (url, the broker object started here or None)."""
    if spec in (None, "embedded"):
        broker = EmbeddedBroker().start()
        return broker.url, broker
    if spec == "mosquitto":
        broker = Mosquitto().start()
        return broker.url, broker
    parse_url(spec, ("embedded", "mosquitto"))
    return spec, None
