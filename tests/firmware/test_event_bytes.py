# The bytes the table journal keeps with an event (firmware/event_bytes.py; docs/journal.md, "What the
# journal must keep with an event"): put back, the table reads the same thing. Dual runtime.
import struct
from array import array

from firmware import faults
from firmware.bets import BetReading
from firmware.event_bytes import behind, behind_into
from firmware.recovery_replay import put_behind     # boot-only (the recovery's): imported again after a boot
from firmware.events import BETS, CARD, FAULT, HOST, HOST_BAD, HOST_HAND, HOST_ROADS, SHOE, SHOE_HELLO
from firmware.evidence import Evidence


class _Table:
    def __init__(self, seats=3):
        self.reading = BetReading(("a", "b", "c", "d"), seats)
        self.evidence = Evidence(size=8)
        self.host_button = 0
        self.host_has_stacks = False
        self.host_stacks = array("i", [0] * 4)
        self.host_reason = ""
        self.host_reason_tag = 0

    def set_host_reason(self, reason, tag):         # (firmware.table.Table's)
        self.host_reason, self.host_reason_tag = reason, tag


def test_a_bet_reading_comes_back_whole_and_sparse():
    table = _Table()
    table.reading.reading_id = 7
    table.reading.amounts[1] = 100
    table.reading.amounts[10] = -1                 # a take-down
    data = behind(table, BETS, 7, 2)
    assert len(data) == 4 + 4 + 2 * 6              # the id, the count, two amounts: not twelve
    fresh = _Table()
    fresh.reading.amounts[3] = 55                  # whatever was there before is replaced
    assert put_behind(fresh, BETS, 7, 2, data) == 2
    assert fresh.reading.reading_id == 7 and list(fresh.reading.amounts) == list(table.reading.amounts)


def _old_sparse(reading_id, values):
    # The record's format as docs/journal.md has it (the encoder before issue 14): the id, the length,
    # the count, then (index u16, value i32) of every value not 0, in index order.
    out = struct.pack("<iHH", reading_id, len(values), len([v for v in values if v]))
    for i in range(len(values)):
        if values[i]:
            out += struct.pack("<Hi", i, values[i])
    return out


def test_a_bet_reading_keeps_its_record_format_byte_for_byte():
    # behind() finds the reading's chips with BetReading.slots() (issue 14): the bytes on flash are
    # the same as ever, so journals written before it still read back.
    table = _Table(seats=5)
    table.reading.reading_id = 65535
    for i, value in ((0, 5), (3, -1), (7, 999999999), (19, 20)):
        table.reading.amounts[i] = value
    data = behind(table, BETS, 65535, 3)
    assert bytes(data) == _old_sparse(65535, table.reading.amounts)
    fresh = _Table(seats=5)
    put_behind(fresh, BETS, 65535, 3, _old_sparse(65535, table.reading.amounts))
    assert list(fresh.reading.amounts) == list(table.reading.amounts) and list(fresh.reading.slots()) == [0, 3, 7, 19]
    table.reading.amounts[0] = 0
    assert bytes(behind(table, BETS, 65535, 3)) == _old_sparse(65535, table.reading.amounts)
    assert fresh.link_room == -1                   # a record with no room after it: unknown


def test_a_bet_reading_keeps_the_host_links_room_it_was_bounded_by():
    # A table with a host link (firmware.main gives link_room before each reading): the room follows the
    # amounts (u16), in the record built in place too, and comes back with the reading.
    table = _Table(seats=5)
    table.reading.reading_id = 9
    table.reading.amounts[7] = 25
    table.link_room = 17
    data = behind(table, BETS, 9, 1)
    assert bytes(data) == _old_sparse(9, table.reading.amounts) + struct.pack("<H", 17)
    buf = bytearray(64)
    assert behind_into(buf, 3, 64, table, BETS, 9, 1) == 3 + len(data) and bytes(buf[3:3 + len(data)]) == bytes(data)
    fresh = _Table(seats=5)
    put_behind(fresh, BETS, 9, 1, data)
    assert fresh.link_room == 17 and list(fresh.reading.amounts) == list(table.reading.amounts)


def test_an_omaha_hand_request_comes_back():
    table = _Table()
    table.host_button, table.host_has_stacks = 3, True
    table.host_stacks[0], table.host_stacks[2] = 1000, 150
    fresh = _Table()
    put_behind(fresh, HOST, HOST_HAND, 0, behind(table, HOST, HOST_HAND, 0))
    assert (fresh.host_button, fresh.host_has_stacks, list(fresh.host_stacks)) == (3, True, [1000, 0, 150, 0])


def test_evidence_comes_back_under_a_new_handle_with_the_same_text_even_truncated():
    table = _Table()
    handle = table.evidence.keep(b"S1 00 HELLO sim*50BA")          # longer than the slot: truncated
    data = behind(table, SHOE, SHOE_HELLO, handle)
    fresh = _Table()
    fresh.evidence.keep(b"x")                                      # handles differ between the two runs
    fresh.evidence.keep(b"y")
    again = put_behind(fresh, SHOE, SHOE_HELLO, handle, data)
    assert again != handle and fresh.evidence.text(again) == table.evidence.text(handle)
    assert "...(20 bytes)" in fresh.evidence.text(again)


def test_evidence_overwritten_before_its_record_comes_back_overwritten_and_an_empty_line_empty():
    # Regression: bytes overwritten in the evidence ring before the event was journalled (events held
    # through the boot's lamp test) were kept as an empty line: the replayed report said "bytes": "",
    # where the live one had said "(overwritten)".
    from firmware.events import BETS_FAULT
    table = _Table()
    old = table.evidence.keep(b"zz")
    for _ in range(8):                                             # the ring (8 slots) goes round once
        table.evidence.keep(b"newer")
    empty = table.evidence.keep(b"")
    assert table.evidence.gone(old) and not table.evidence.gone(empty) and not table.evidence.gone(0)
    for handle, text in ((old, "(overwritten)"), (empty, "")):
        data = behind(table, BETS_FAULT, faults.FRAME_SYNTAX, handle)
        fresh = _Table()
        again = put_behind(fresh, BETS_FAULT, faults.FRAME_SYNTAX, handle, data)
        assert table.evidence.text(handle) == text and fresh.evidence.text(again) == text, (handle, data)
        assert behind(fresh, BETS_FAULT, faults.FRAME_SYNTAX, again) == data     # journalled again alike


def test_a_refused_host_request_keeps_its_reason_and_a_fault_its_bytes():
    table = _Table()
    handle = table.evidence.keep(b'{"hand"')
    table.host_reason = "not JSON"
    fresh = _Table()
    again = put_behind(fresh, HOST, HOST_BAD, handle, behind(table, HOST, HOST_BAD, handle))
    assert fresh.host_reason == "not JSON" and fresh.evidence.text(again) == '{"hand"'
    handle = table.evidence.keep(b"\xff\x00")
    again = put_behind(fresh, FAULT, faults.BAD_CARD, handle, behind(table, FAULT, faults.BAD_CARD, handle))
    assert fresh.evidence.text(again) == "\\xff\\x00"


def test_a_refused_host_requests_tag_comes_back_and_a_record_from_before_tags_reads_as_untagged():
    table = _Table()
    handle = table.evidence.keep(b"opn_bets")
    table.host_reason = "unknown request"
    untagged = behind(table, HOST, HOST_BAD, handle)
    table.host_reason_tag = 9999
    tagged = behind(table, HOST, HOST_BAD, handle)
    assert tagged == untagged + struct.pack("<H", 9999)     # an untagged one's bytes as before the tags
    fresh = _Table()
    again = put_behind(fresh, HOST, HOST_BAD, handle, tagged)
    assert (fresh.host_reason, fresh.host_reason_tag, fresh.evidence.text(again)) == (
        "unknown request", 9999, "opn_bets")
    put_behind(fresh, HOST, HOST_BAD, handle, untagged)     # (a record journalled before the tags)
    assert (fresh.host_reason, fresh.host_reason_tag) == ("unknown request", 0)


def test_a_technicians_command_keeps_its_line_and_a_failed_login_nothing():
    from firmware.events import CON_ACT_COMMAND, CON_ACT_LOGIN_FAILED, CONSOLE
    table = _Table()
    handle = table.evidence.keep(b"lamp all")
    fresh = _Table()
    again = put_behind(fresh, CONSOLE, CON_ACT_COMMAND, handle, behind(table, CONSOLE, CON_ACT_COMMAND, handle))
    assert fresh.evidence.text(again) == "lamp all"        # the audit's and the report's `line`, after a reset too
    assert behind(table, CONSOLE, CON_ACT_LOGIN_FAILED, 1) == b""   # b: the wrong PINs so far, no handle


def test_events_whole_in_their_three_ints_keep_nothing():
    table = _Table()
    for kind, a, b in ((CARD, 12, 1), (HOST, HOST_ROADS, 0), (FAULT, faults.QUEUE_FULL, 3), (SHOE, SHOE_HELLO, 0)):
        assert behind(table, kind, a, b) == b"", (kind, a, b)
        assert put_behind(table, kind, a, b, b"") == b


def test_the_bytes_behind_built_in_place_are_behinds_bytes():
    # The table journal builds a card's or a closed reading's record where the journal encodes it
    # (issue 14: no payload built, joined and copied): the same bytes as behind(), right after `at`.
    table = _Table(seats=5)
    table.reading.reading_id = 12
    for i, value in ((0, 5), (3, -1), (7, 999999999), (19, 20)):
        table.reading.amounts[i] = value
    buf = bytearray(b"\xee" * 80)
    end = behind_into(buf, 9, 80, table, BETS, 12, 4)
    assert bytes(buf[9:end]) == behind(table, BETS, 12, 4) == _old_sparse(12, table.reading.amounts)
    assert buf[:9] == b"\xee" * 9 and buf[end:] == b"\xee" * (80 - end)
    assert behind_into(buf, 9, 80, table, CARD, 33, 1) == 9          # a card: nothing behind it
    assert behind(table, CARD, 33, 1) == b""


def test_bytes_behind_not_built_in_place_are_left_to_behind():
    # A reading that does not fit before the limit, a host's hand, evidence: -1, buf untouched.
    table = _Table(seats=5)
    table.reading.reading_id = 3
    for i in range(8):
        table.reading.amounts[i] = 10 + i
    buf = bytearray(64)
    assert behind_into(buf, 4, 4 + 8 + 6 * 8 - 1, table, BETS, 3, 0) == -1
    assert behind_into(buf, 4, 4 + 8 + 6 * 8, table, BETS, 3, 0) == 4 + 8 + 6 * 8   # exactly fits
    buf = bytearray(64)
    assert behind_into(buf, 0, 64, table, HOST, HOST_HAND, 0) == -1
    handle = table.evidence.keep_raw(b"\x01\x02", 2)
    assert behind_into(buf, 0, 64, table, SHOE, SHOE_HELLO, handle) == -1
    assert behind_into(buf, 0, 64, table, HOST, HOST_ROADS, 0) == 0
    assert buf == bytearray(64)


def test_every_kind_s_bytes_built_in_place_agree_with_behind_and_a_card_or_throw_asks_no_evidence_test():
    # Issue 14: behind_into() tells a card's, a throw's, a key's... record (no evidence handle possible
    # for its kind) by one bit, without _evidence_handle()'s call; for every event kind, a of the
    # evidence faults and not, b none, 1 or a live evidence handle, it gives what behind() gives:
    # `at` (nothing behind), -1 (behind() builds them) or the reading's bytes.
    from firmware import event_bytes
    from firmware import events
    from tests.firmware.expect import count_calls
    kinds = [getattr(events, name) for name in ("TICK", "BUTTON", "CARD", "CONSOLE", "HOST", "FAULT", "LAMP",
                                                 "CONSOLE_ERROR", "FAULT_RESTORED", "SHOE", "BETS", "BETS_FAULT",
                                                 "THROW", "DICE_READER_HELLO", "KEY", "LINK_BACKLOG")]
    table = _Table(seats=5)
    table.reading.reading_id = 7
    table.reading.amounts[2] = 50
    handle = table.evidence.keep_raw(b"\x01\x02", 2)
    for kind in kinds:
        for a in (0, 1, 2, 3, 7, faults.BAD_CARD, faults.DEVICE_FIRST):
            for b in (0, 1, handle):
                buf = bytearray(96)
                end = behind_into(buf, 9, 90, table, kind, a, b)
                bytes_behind = behind(table, kind, a, b)
                if end < 0:
                    assert buf == bytearray(96) and bytes_behind
                else:
                    assert bytes(buf[9:end]) == bytes_behind, (kind, a, b)
    calls, plain = count_calls(event_bytes, "_evidence_handle")
    try:
        for kind in (events.TICK, events.BUTTON, events.CARD, events.LAMP, events.THROW, events.KEY):
            assert behind_into(bytearray(32), 9, 28, table, kind, 1, 1) == 9
        assert calls[0] == 0
        assert behind_into(bytearray(32), 0, 28, table, SHOE, SHOE_HELLO, handle) == -1
        assert calls[0] == 1
    finally:
        event_bytes._evidence_handle = plain
