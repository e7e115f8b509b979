"""docs/protocol.md's device-line examples are real frames, its CRC walk-through and fault table are right."""
import binascii
import os
import re

from firmware import device_frame as df
from firmware import faults
from firmware.drivers import bet_reader, shoe

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "docs", "protocol.md")
FRAME = re.compile(r"\b([A-Z][1-9] [0-9A-F]{2} [A-Z]+(?: [!-)+-~]+)*)\*([0-9A-F]{4})\b")
TYPES = {"S": shoe.TYPES, "B": bet_reader.TYPES}


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
    assert "table[0xAC] = 0x7466" in text and df._CRC_TABLE[0xAC] == 0x7466


def test_fault_table_matches_faults():
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \|", _device_section(), re.M)
    assert [(int(code), name) for code, name in rows] == \
        [(faults.DEVICE_FIRST + i, name) for i, name in enumerate(faults.DEVICE_NAMES)]


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
    assert [(int(code), name) for code, name in rows] == [(i, faults.NAMES[i]) for i in range(1, len(faults.NAMES))]
