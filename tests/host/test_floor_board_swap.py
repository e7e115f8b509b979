"""A board replaced while its floor gateway was down: the restarted gateway tells it, as a running one does.

A new board's boot counter starts again, so its (boot, seq) pairs repeat the old board's, and a consumer
drops a pair it has as a duplicate (tools/floor/consumer.py): the new board's reports would be lost to it.
A running gateway sees the old board's boot acknowledged and the new board's first OPEN ("-") of a lower
boot outlive 8 ACKs, and publishes `link_boot_back` first (test_floor_link_notices.py). A gateway started
after the swap never saw the old board: with --spool it keeps each table's mark (the first report the broker
confirmed in the board's newest boot) there and starts each link's client from it (docs/floor.md, "A board
replaced while its link was down"); a running gateway keeps it too, for a board swapped while its device was
unplugged.
"""
import json
import os

import pytest

from firmware.link import frame as fm
from firmware.link.ram_store import RamStore
from firmware.link.sender import Sender
from tests.host.test_floor_gateway import PtyBoard, _crash, _drive, _tables
from tools.floor.broker import EmbeddedBroker
from tools.floor.consumer import Consumer
from tools.floor.gateway import Gateway
from tools.host import HostClient

FLOOR = "swap"


def _frames(*frames):
    return b"".join(fm.encode(*f) for f in frames)


def _acks(reply):
    return [line[1:].split(b" ")[0].decode() for line in reply.split(b"\n") if b" ACK*" in line]


def _reboot(board, boot):
    """The same board starts again: a new Sender on the store it kept, the next boot counter, its OPEN naming
    the last frame of the boot before (the journal keeps it)."""
    board.sender = Sender(board, board.sender.store, boot, previous=board.sender.last_frame())


@pytest.fixture
def floor():
    """An embedded broker and a consumer keeping every report: (broker url, consumer)."""
    broker = EmbeddedBroker().start()
    consumer = Consumer(FLOOR, broker.url, keep=True).start()
    yield broker.url, consumer
    consumer.stop(forget=True)
    broker.stop()


def _numbers(consumer, table):
    return [r["n"] for r in consumer.reports.get(table, []) if "n" in r]


def test_a_client_started_from_a_mark_tells_a_new_boards_first_open_of_a_lower_boot_after_8_acks():
    client = HostClient(hold_acks=True, stamped=True, notices=True, known=(2, 6))
    new_board = _frames((1, 0, "GONE", "0.0 1.1"), (1, 1, "OPEN", "-"), (1, 2, "REPORT", '{"event": "card"}'))
    for _ in range(7):
        reports, reply = client.feed(new_board)
        assert reports == [] and "2.6" in _acks(reply)   # the board that was here drops it at this ACK
    assert client.boot_back is None
    client.feed(new_board)                               # this one does not: it never had 2.x
    assert client.boot_back == (2, 1) and client.events[-1]["link"] == "boot_back"


def test_a_client_started_from_a_mark_takes_the_same_boards_frames_as_before():
    # The board that was here, its OPEN of a lower boot never acknowledged (the ACKs lost): dropped at the ACK
    # of the mark, then the client starts where the board's frames go on.
    client = HostClient(hold_acks=True, stamped=True, notices=True, known=(2, 6))
    reports, reply = client.feed(_frames((1, 0, "GONE", "0.0 1.1"), (1, 1, "OPEN", "-")))
    assert reports == [] and "2.6" in _acks(reply)
    reports, _ = client.feed(_frames((2, 0, "GONE", "0.0 2.7"), (2, 7, "REPORT", '{"event": "card", "n": 7}')))
    assert [r["n"] for r in reports] == [7] and client.boot_back is None
    # the same boot as the mark, or a later one: the board's own frames, whatever they are
    client = HostClient(hold_acks=True, stamped=True, notices=True, known=(1, 6))
    reports, _ = client.feed(_frames((1, 0, "GONE", "0.0 1.1"), (1, 1, "OPEN", "-"),
                                     (1, 2, "REPORT", '{"event": "card", "n": 2}')))
    assert [r["n"] for r in reports] == [2]


def test_a_board_replaced_while_the_gateway_was_down_reaches_the_consumer_after_a_boot_back_notice(floor, tmp_path):
    url, consumer = floor
    spool = str(tmp_path / "spool")
    old = PtyBoard("t1")
    first = Gateway(FLOOR, _tables([old]), url, spool=spool).start()
    new = second = None
    try:
        old.make(4)                                      # boot 1: 1.2 .. 1.5
        assert _drive(first, [old], lambda: old.sender.held() == 0)
        _reboot(old, 2)
        old.make(4)                                      # boot 2: 2.2 .. 2.5
        assert _drive(first, [old], lambda: old.sender.held() == 0)
        assert _drive(None, [], lambda: consumer.count() == 8)
        _crash(first)
        with open(os.path.join(spool, "t1.mark.json")) as f:
            assert json.load(f) == {"table": "t1", "boot": 2, "seq": 2}   # the first report of boot 2
        # The board replaced (its flash new: boot 1 again), the gateway started again on the same spool.
        new = PtyBoard("t1")
        for n in range(100, 106):
            assert new.sender.send(json.dumps({"event": "card", "n": n})) > 0
        second = Gateway(FLOOR, _tables([new]), url, spool=spool).start()
        assert _drive(second, [new], lambda: new.sender.held() == 0)
        assert _drive(None, [], lambda: len(_numbers(consumer, "t1")) == 14)
        assert _numbers(consumer, "t1") == [0, 1, 2, 3, 4, 5, 6, 7] + list(range(100, 106))
        notices = [r for r in consumer.reports["t1"] if r["event"] == "link_boot_back"]
        assert notices == [{"event": "link_boot_back", "from": 2, "to": 1, "link": {"boot": 1, "seq": 0}}]
        with open(os.path.join(spool, "t1.mark.json")) as f:
            assert json.load(f)["boot"] == 1                 # the new board's, from its first confirmed report
        assert second.status()[0]["mark"] == {"boot": 1, "seq": 2}
    finally:
        if second is not None:
            second.stop()
        for board in (old, new):
            if board is not None:
                board.close()


def test_a_gateway_restarted_on_its_spool_takes_the_same_board_on_without_a_notice(floor, tmp_path):
    url, consumer = floor
    spool = str(tmp_path / "spool")
    board = PtyBoard("t1")
    first = Gateway(FLOOR, _tables([board]), url, spool=spool).start()
    second = None
    try:
        board.make(4)
        assert _drive(first, [board], lambda: board.sender.held() == 0)
        _reboot(board, 2)
        board.make(3)
        _crash(first)                                    # boot 2's frames never acknowledged
        _reboot(board, 3)
        board.make(3)
        second = Gateway(FLOOR, _tables([board]), url, spool=spool).start()
        assert _drive(second, [board], lambda: board.sender.held() == 0)
        assert _drive(None, [], lambda: len(_numbers(consumer, "t1")) == 10)
        assert _numbers(consumer, "t1") == list(range(10))
        assert not [r for r in consumer.reports["t1"] if r["event"].startswith("link_")]
        with open(os.path.join(spool, "t1.mark.json")) as f:
            assert json.load(f)["boot"] == 3
    finally:
        if second is not None:
            second.stop()
        board.close()


def test_an_unreadable_mark_is_set_aside_and_the_link_comes_up_without_it(tmp_path):
    spool = tmp_path / "spool"
    spool.mkdir()
    (spool / "t1.mark.json").write_text('{"table": "t1", "boot": "two"')
    from tools.floor.link import Link
    link = Link("t1", "/nonexistent", 115200, spool=str(spool))
    assert link.mark is None and "t1.mark.json unreadable" in link.last_error
    assert sorted(os.listdir(spool)) == ["t1.mark.json.bad"]


def test_a_board_replaced_while_its_link_was_down_is_told_by_the_running_gateway_without_a_spool(floor):
    # The device unplugged, another board plugged in: the link's new client starts from the mark it kept.
    url, consumer = floor
    board = PtyBoard("t1")
    gateway = Gateway(FLOOR, _tables([board]), url).start()
    try:
        board.make(3)
        _reboot(board, 2)
        board.make(3)
        assert _drive(gateway, [board], lambda: board.sender.held() == 0)
        link = gateway.links[0]
        link.close("unplugged")
        board.sender = Sender(board, RamStore(64, fm.MAX_FRAME), 1)    # another board behind the same device
        board.make(4)
        assert _drive(gateway, [board], lambda: board.sender.held() == 0)
        assert _drive(None, [], lambda: len(_numbers(consumer, "t1")) == 10)
        assert _numbers(consumer, "t1") == list(range(10))
        assert [r["event"] for r in consumer.reports["t1"]].count("link_boot_back") == 1
    finally:
        gateway.stop()
        board.close()


def test_the_mark_moves_to_the_first_report_of_a_newer_boot_only_and_starts_again_for_another_board(tmp_path):
    from tools.floor.link import Link
    link = Link("t1", "/nonexistent", 115200, spool=str(tmp_path))
    for position in ((3, 2), (3, 9), (4, 5), (3, 12), (4, 6)):     # 3.12: the boot before's, sent again
        link._keep_mark(position)
    assert link.mark == (4, 5) and Link("t1", "/nonexistent", 115200, spool=str(tmp_path)).mark == (4, 5)
    link.board_replaced()
    assert link.mark is None and Link("t1", "/nonexistent", 115200, spool=str(tmp_path)).mark == (4, 5)
    link._keep_mark((1, 2))                                         # the new board's first confirmed report
    assert Link("t1", "/nonexistent", 115200, spool=str(tmp_path)).mark == (1, 2)

