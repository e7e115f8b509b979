"""The floor's brokers themselves (tools/floor/broker.py): an outage drops the clients it should and listens
again, a stopped broker stops, a Mosquitto of our own is replaced whole at a restart and cleans up after it."""
import os
import socket
import time

import pytest

from tools.floor import broker as broker_mod
from tools.floor.broker import BrokerError, EmbeddedBroker, Mosquitto, mosquitto_binary


def _connect(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=2)
    sock.settimeout(0.3)
    return sock


def _dropped(sock):
    """True if the broker closed this connection (EOF or reset), False if it is still open."""
    try:
        return sock.recv(1) == b""
    except socket.timeout:
        return False
    except OSError:
        return True


def _until(test, timeout_s=5.0):
    end = time.monotonic() + timeout_s
    while not test():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def test_an_embedded_broker_outage_drops_every_client_but_those_kept_and_listens_again():
    # `simulate --kill-broker-every` and test_floor_gateway's restart keep the consumer's connection (its
    # count of what arrived is the measure) and drop the rest, as a real broker's restart would.
    broker = EmbeddedBroker().start()
    kept = dropped = None
    try:
        kept, dropped = _connect(broker.port), _connect(broker.port)
        assert _until(lambda: len(broker._writers) == 2)
        broker.restart(0.2, keep_ports=(kept.getsockname()[1],))
        assert _until(lambda: _dropped(dropped)) and not _dropped(kept)
        assert broker.restarts == 1
        _connect(broker.port).close()                                # listening again
    finally:
        for sock in (kept, dropped):
            if sock is not None:
                sock.close()
        broker.stop()


def test_a_stopped_embedded_broker_listens_no_more_and_stops_once():
    broker = EmbeddedBroker().start()
    thread = broker._thread
    broker.stop()
    assert not thread.is_alive()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", broker.port), timeout=1).close()
    broker.stop()                                                    # a second stop: nothing left to do


@pytest.fixture
def mosquitto():
    if mosquitto_binary() is None:
        pytest.skip("no mosquitto binary here (Debian: apt-get install mosquitto; .ci/run installs it)")
    broker = Mosquitto()
    yield broker
    broker.stop()


def test_a_mosquitto_restart_replaces_its_process_and_a_stop_removes_its_directory(mosquitto, monkeypatch):
    mosquitto.start()
    first = mosquitto.proc
    mosquitto.restart(0.1)
    assert first.poll() is not None and mosquitto.proc is not first and mosquitto.proc.poll() is None
    _connect(mosquitto.port).close()
    assert mosquitto.restarts == 1
    second = mosquitto.proc
    monkeypatch.delenv("FLOOR_KEEP", raising=False)
    mosquitto.stop()
    assert second.poll() is not None and not os.path.exists(mosquitto.dir)


def test_a_mosquitto_kept_for_a_look_keeps_its_directory(mosquitto, monkeypatch):
    mosquitto.start()
    monkeypatch.setenv("FLOOR_KEEP", "1")                          # docs/floor.md: its log and persistence
    mosquitto.stop()
    assert os.path.exists(os.path.join(mosquitto.dir, "mosquitto.conf"))
    monkeypatch.delenv("FLOOR_KEEP")
    mosquitto.stop()
    assert not os.path.exists(mosquitto.dir)


def test_a_mosquitto_that_does_not_listen_is_stopped_and_named(mosquitto, monkeypatch):
    monkeypatch.setattr(broker_mod, "wait_listening", lambda host, port: False)
    with pytest.raises(BrokerError) as caught:
        mosquitto.start()
    assert str(caught.value) == "mosquitto did not listen on %s (log: %s/mosquitto.log)" % (mosquitto.url,
                                                                                          mosquitto.dir)
    assert mosquitto.proc is None
