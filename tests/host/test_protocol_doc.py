"""docs/protocol.md's device-line examples are real frames, its CRC walk-through and fault table are right."""
import binascii
import os
import re

from firmware import device_frame as df
from firmware import events, fault_kinds, faults, statemachine, throws
from firmware.drivers import bet_reader, dice_reader, shoe
from firmware.evidence import Evidence
from firmware.games.craps.dice import check_report

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "docs", "protocol.md")
FRAME = re.compile(r"\b([A-Z][1-9] [0-9A-F]{2} [A-Z]+(?: [!-)+-~]+)*)\*([0-9A-F]{4})\b")
TYPES = {"S": shoe.TYPES, "B": bet_reader.TYPES, "D": dice_reader.TYPES}


def _device_section():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Device lines"):]
    return section[:section.index("\n## ", 3)] if "\n## " in section[3:] else section


def test_every_example_frame_has_the_right_crc_and_decodes():
    examples = FRAME.findall(_device_section())
    assert len(examples) >= 20
    for body, crc in examples:
        assert "%04X" % binascii.crc_hqx(body.encode(), 0xFFFF) == crc, body
        line = ("%s*%s" % (body, crc)).encode()
        types = TYPES.get(body[0])
        if types is not None:
            frame = df.Frame(body[0].encode(), int(body[1]), types)
            assert frame.decode(line) == df.OK, line


def test_crc_walk_through():
    text = _device_section()
    row = re.search(r"\| CRC after \|(.*)\|", text).group(1)
    steps = [int(v.strip(" *"), 16) for v in row.split("|")]
    crc = 0xFFFF
    for byte, expected in zip(b"S1 00 CUT", steps):
        crc = binascii.crc_hqx(bytes([byte]), crc)
        assert crc == expected
    assert len(steps) == len(b"S1 00 CUT") and df.crc16(b"S1 00 CUT") == 0xED02
    assert "table[0xAC] = 0x7466" in text and (df._CRC_HI[0xAC] << 8 | df._CRC_LO[0xAC]) == 0x7466


def test_fault_table_matches_faults():
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \|", _device_section(), re.M)
    assert [(int(code), name) for code, name in rows] == \
        [(faults.DEVICE_FIRST + i, name) for i, name in enumerate(fault_kinds.DEVICE_NAMES)]


def test_stated_limits_match_the_code():
    text = _device_section()
    assert "at most **96 bytes**" in text and df.MAX_LINE == 96
    assert "at most 8 (`MAX_ARGS`)" in text and df.MAX_ARGS == 8
    assert "1..999 999 999" in text and bet_reader.MAX_AMOUNT == 999999999


def test_host_report_fault_table_matches_faults():
    text = open(DOC, encoding="utf-8").read()
    section = text[text.index("## Host reports"):]
    section = section[:section.index("\n## ", 3)]
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \|", section, re.M)
    assert [(int(code), name) for code, name in rows] == [(i, fault_kinds.NAMES[i]) for i in range(1, len(fault_kinds.NAMES))]


def _dice_section():
    section = _device_section()
    section = section[section.index("### Dice reader (`D`, version 1)"):]
    return section[:section.index("\n### ", 3)]


def _dice_rows():
    """(example line, event cell, engine cell or None) for every table row with a dice example."""
    rows = []
    for line in _dice_section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for i, cell in enumerate(cells):
            found = FRAME.search(cell)
            if found and cell == "`%s`" % found.group(0):
                engine = cells[i + 2] if i + 2 < len(cells) else None
                rows.append((found.group(0).encode(), cells[i + 1], engine))
    return rows


def test_dice_reader_examples_give_the_documented_event_and_engine_verdict():
    """Each example line, through the driver, gives the event its row names; through
    firmware.throws, the engine decides as the row says (Craps arts. 2-3)."""
    rows = _dice_rows()
    assert len(rows) >= 17
    checked = {"throw": 0, "fault": 0, "hello": 0}
    for line, event, engine in rows:
        reader = dice_reader.DiceReader(None, statemachine.EventQueue(8), Evidence())
        reader.handle(line)
        assert reader.queue.get(), line
        got = (reader.queue.kind, reader.queue.a, reader.queue.b)
        assert not reader.queue.get(), line               # one event per example
        throw = re.fullmatch(r"`THROW` a = (\d+), b = (\d+)", event)
        fault = re.match(r"(?:`FAULT` )?`(\w+)`(?:, b = evidence)?$", event)
        if throw:
            assert got == (events.THROW, int(throw.group(1)), int(throw.group(2))), line
            verdict = check_report(throws.report(got[1], got[2]))
            if engine is not None:
                roll = re.fullmatch(r"roll (\d) (\d)", engine)
                assert verdict == ((int(roll.group(1)), int(roll.group(2)), None) if roll else
                                   (0, 0, verdict[2])), line
                assert roll or (engine == "no roll" and verdict[2] is not None), line
            checked["throw"] += 1
        elif event.startswith("`DICE_READER_HELLO`"):
            assert got[:2] == (events.DICE_READER_HELLO, 0) and reader.evidence.text(got[2]) == line.decode()
            checked["hello"] += 1
        else:
            assert fault, (line, event)
            code = faults.DEVICE_FIRST + fault_kinds.DEVICE_NAMES.index(fault.group(1))
            assert got[:2] == (events.FAULT, code) and reader.evidence.text(got[2]) == line.decode(), line
            checked["fault"] += 1
    assert checked["hello"] == 1 and checked["fault"] >= 6 and checked["throw"] >= 9


def test_dice_reader_doc_states_the_code_s_vocabulary():
    text = _dice_section()
    assert "`%s`" % " ".join(throws.FLAG_NAMES) in text.replace("\n", " ")
    bits = dict(re.findall(r"^\| `(THROW_\w+)` \| (\d+) \|", text, re.M))
    assert {name: int(v) for name, v in bits.items()} == \
        {name: getattr(events, name) for name in bits} and len(bits) == 7
    assert sum(int(v) for v in bits.values()) == throws.ALL_BITS
    assert "d1 x %d + d2 (`THROW_FACE_BASE`" % events.THROW_FACE_BASE in text.replace("\n", " ")
