# What a running table knows of a fault code beyond its number: its name in reports and on the displays,
# what its b carries (evidence, a card, a count), whether it is the card reader's, how severe an alarm is.
#
# The codes themselves are firmware/faults.py's, the source of truth; a board never imports that module
# (its codes would stay in the heap as globals: issue 14): this module and every module that raises or
# tests a fault take them as private const() copies (tests/host/test_const_copies.py).

# copies of firmware.faults (tests/host/test_const_copies.py)
_BAD_CARD = const(1)
_BETS_RESTARTED = const(54)
_BETS_SENSOR = const(41)
_CARD_IMPOSSIBLE = const(11)
_CARD_MISSING = const(16)
_CARD_OUT_OF_ORDER = const(14)
_CARD_UNREADABLE = const(12)
_CRASHED = const(6)
_DEVICE_FIRST = const(32)
_DISPLAY_MISSING = const(5)
_DOUBLE_PULL = const(13)
_FAULT_RECORD_BAD = const(9)
_JOURNAL_BAD = const(20)
_JOURNAL_NEARLY_FULL = const(23)
_LINE_TOO_LONG = const(3)
_LINK_BACKLOG = const(17)
_PARTIAL_LINE = const(7)
_RESET_IN_ROUND = const(21)
_SHOE_REMOVED = const(15)
_SHOE_RESTARTED = const(52)
_UNEXPECTED_INPUT = const(8)

# By code (firmware/faults.py); "bad_dice" (2) is reserved: raised no more, still named (a restored fault
# record may hold it).
NAMES = ("none", "bad_card", "bad_dice", "line_too_long", "queue_full", "display_missing", "crashed",
         "partial_line", "unexpected_input", "fault_record_bad", "fault_record_unsaved",
         "card_impossible", "card_unreadable", "double_pull", "card_out_of_order", "shoe_removed",
         "card_missing", "link_backlog", "boot_counter_bad", "program_mismatch", "journal_bad",
         "reset_in_round", "settings_bad", "journal_nearly_full")
# The device lines' codes, from faults.DEVICE_FIRST on.
DEVICE_NAMES = ("frame_syntax", "frame_crc", "frame_device", "frame_version", "frame_type", "frame_args",
                "frame_lost", "frame_conflict", "shoe_sensor", "bets_sensor", "bets_incomplete",
                "bets_bad_seat", "bets_bad_zone", "bets_bad_amount", "bets_dup_zone", "dice_bad_face",
                "dice_unread", "dice_bad_flag", "dice_sensor", "bets_take_down", "shoe_restarted",
                "dice_restarted", "bets_restarted")

# A FAULT event's b for these codes (and every device line's) is a handle into the table's evidence store
# (firmware.evidence): the bytes the reader sent, which the host report shows escaped.
_EVIDENCE = (_BAD_CARD, _LINE_TOO_LONG, _PARTIAL_LINE, _UNEXPECTED_INPUT)
# A controller's alarms: b is the card concerned, or -1 when none is known.
_CARD_ALARMS = (_CARD_IMPOSSIBLE, _CARD_UNREADABLE, _DOUBLE_PULL, _CARD_OUT_OF_ORDER, _SHOE_REMOVED, _CARD_MISSING,
                _LINK_BACKLOG)
# Faults whose b says nothing (0 wherever raised): reported without "detail" (a constant 0 a host would
# have to learn to ignore). JOURNAL_BAD's b is 1 when the journal filled with no boundary (reported
# "full": true), else 0. The others keep "detail": a count (QUEUE_FULL), the fault not saved
# (FAULT_RECORD_UNSAVED), the boot number (BOOT_COUNTER_BAD).
_NO_DETAIL = (_DISPLAY_MISSING, _CRASHED, _FAULT_RECORD_BAD, _JOURNAL_BAD, _RESET_IN_ROUND)


def name(code):
    if 0 <= code < len(NAMES):
        return NAMES[code]
    if _DEVICE_FIRST <= code < _DEVICE_FIRST + len(DEVICE_NAMES):
        return DEVICE_NAMES[code - _DEVICE_FIRST]
    return "fault_%d" % code


def has_evidence(code):
    """True when a FAULT event's b for this code is an evidence handle (not a count)."""
    return code in _EVIDENCE or code >= _DEVICE_FIRST


def plain_fields(code, b):
    """A host report's fields for a fault whose b is neither evidence nor a card: "detail" only where
    b means something (docs/protocol.md, "Fault codes")."""
    fields = {"fault": name(code)}
    if code == _JOURNAL_BAD:
        if b:
            fields["full"] = True
    elif code not in _NO_DETAIL:
        fields["detail"] = b
    return fields


def bets_fault_report(evidence, code, b):
    """A BETS_FAULT's host report, (event, fields), at every table with a bet reader: the reader's HELLO
    between readings (bet_reader restarted, its line), a reading the table journal had no room for
    (JOURNAL_NEARLY_FULL: b is its id), else a reading the driver refused (the line that showed it)."""
    if code == _BETS_RESTARTED:                          # as the shoe's and the dice reader's HELLO
        return "bet_reader", {"bet_reader": "restarted", "bytes": evidence.text(b)}
    if code == _JOURNAL_NEARLY_FULL:
        return "bets", {"reading": b, "accepted": False, "reason": name(code)}
    return "bets", evidence.into({"accepted": False, "reason": name(code)}, "bytes", b)


def is_game_alarm(code):
    """True for a controller's alarm: its b is a card (or -1), reported as "card"."""
    return code in _CARD_ALARMS


def is_reader_fault(code):
    """True for a fault of the card reader's line or frames: a card may have been lost with it."""
    return (code == _BAD_CARD or code == _LINE_TOO_LONG or code == _PARTIAL_LINE
            or _DEVICE_FIRST <= code < _BETS_SENSOR or code == _SHOE_RESTARTED or code == _RESET_IN_ROUND)


# How severe a card game's alarm is: while one is open, a worse one takes its place (the dealer closes
# the worse); a milder one is only reported. Reader faults are the mildest: a card may be lost.
_SEVERITY_IMPOSSIBLE = const(4)
_SEVERITY_UNREADABLE = const(3)
_SEVERITY_HELD = const(2)
_SEVERITY_READER = const(1)


def alarm_severity(code):
    if code == _CARD_IMPOSSIBLE:
        return _SEVERITY_IMPOSSIBLE
    if code == _CARD_UNREADABLE:
        return _SEVERITY_UNREADABLE
    if (code == _DOUBLE_PULL or code == _SHOE_REMOVED or code == _CARD_OUT_OF_ORDER or code == _CARD_MISSING
            or code == _LINK_BACKLOG):
        return _SEVERITY_HELD
    if is_reader_fault(code):
        return _SEVERITY_READER
    return 0
