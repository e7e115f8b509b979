# What the Craps dealer and result displays show (pure text lines; the LCD driver draws them).
#
# Dealer display: the shooter and what the last throw means ("POINT 6",
# "SEVEN OUT", "NO ROLL: SHORT", "NEW SHOOTER"), bets refused, an alarm's
# prompt; "BETS NOT READ" on the last line after a reading refused whole, until a reading is
# accepted or the dice roll. Result display: the puck, the last throws and the shooter's rolls.
from firmware import fault_kinds, throws
from firmware import screens as core_screens
from firmware.games.craps.reports import no_roll_word

# copies of firmware.faults (tests/host/test_const_copies.py)
_LINK_BACKLOG = const(17)
# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_COME_OUT = const(4)
_LAST_THROWS = const(6)
_POINT = const(5)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)
_READY = const(1)


class _Line:
    """A display line kept with the values it was made of: a reading's CLOSE (every pass that redraws
    the screens) shows the same shooter, throw and totals, compared (the totals in C) instead of
    formatted again; keyed by those values alone, so any table may ask."""

    def __init__(self, b=None):
        self.a = None
        self.b = b
        self.text = ""


_THROW_LINE = _Line()
_SHOOTER_LINE = _Line()
_TOTALS_LINE = _Line(bytearray(_LAST_THROWS))    # a: the count, b: a copy of the totals


def _totals_text(table):
    """The result display's "LAST 7 6 12" line (a throw, or a restore, changes the totals)."""
    count = table.total_count
    line = _TOTALS_LINE
    if count != line.a or table.last_totals != line.b:
        line.b[:] = table.last_totals
        line.a = count
        # Whole totals, newest first, as many as fit: six of two digits do not (22 columns), and the LCD
        # cut the last one short ("LAST 4 10 11 12 10 1": an 11 shown as a 1).
        text = "LAST"
        for i in range(count):
            total = " %d" % table.last_totals[i]
            if len(text) + len(total) > core_screens.LCD_COLUMNS:
                break
            text += total
        line.text = text if count else ""
    return line.text


def _throw_text(table):
    a = table.throw_a
    no_roll = table.no_roll
    line = _THROW_LINE
    if a != line.a or no_roll != line.b:
        d1 = throws.face(a, 0)
        d2 = throws.face(a, 1)
        if no_roll:
            line.text = "%s %s" % (d1 or "-", d2 or "-")
        else:
            line.text = "%d + %d = %d" % (d1, d2, d1 + d2)
        line.a = a
        line.b = no_roll
    return line.text


def _shooter_text(table):
    shooter = table.shooter
    rolls = table.shooter_rolls
    line = _SHOOTER_LINE
    if shooter != line.a or rolls != line.b:
        text = "SHOOTER %d ROLL %d" % (shooter, rolls)
        if len(text) > core_screens.LCD_COLUMNS:         # a long day's shooter count: the roll's digits
            text = "SHOOTER %d R%d" % (shooter, rolls)   # were cut ("ROLL 10" for 100)
        line.text = text
        line.a = shooter
        line.b = rolls
    return line.text


def prompt(table):
    """What the last throw means for the dealer."""
    engine = table.engine
    if table.link_backlog and not engine.point:
        return "HOST AWAY: NO ROLL"                  # no come-out until the host link catches up
    if not table.thrown:
        return "COME OUT"
    if table.no_roll:
        return "NO ROLL: " + no_roll_word(table.throw_b).replace("_", " ").upper()
    if engine.seven_out:
        return "SEVEN OUT"
    if engine.point:
        return "POINT %d" % engine.point
    return "COME OUT"


def dealer_lines(table, config, button_names):
    state = table.state
    if state == _FAULTED and table.fault_code == _LINK_BACKLOG:
        return ["HOST AWAY: NO ROLL", "COME-OUT NOT DECIDED",
                "SHOOTER NOT CHANGED" if table.shooter_kept else "THROW AGAIN LATER",
                "WAIT OR HOLD VOID" if table.link_backlog else "CONFIRM: THROW AGAIN"]
    if state == _FAULTED:
        # (a NEW SHOOTER pressed in the alarm is not taken: said in place of the held throws' line)
        return ["ALARM: DICE HELD", fault_kinds.name(table.fault_code).upper(),
                "SHOOTER NOT CHANGED" if table.shooter_kept else "NO THROW DECIDED", "CONFIRM OR HOLD VOID"]
    if state != _COME_OUT and state != _POINT:
        lines = core_screens.dealer_lines(table, config, button_names)
        if table.bets_unread and state == _READY:
            lines[2] = core_screens.BETS_NOT_READ    # (over the last button: the table opens with a reading)
        return lines
    if table.new_shooter:
        last = "NEW SHOOTER"
    else:
        last = _throw_text(table) if table.thrown else ""
    return [_shooter_text(table), prompt(table), last,
            core_screens.BETS_NOT_READ if table.bets_unread else _refused_text(len(table.refusals))]


def _refused_text(refused):
    if not refused:
        return ""
    text = "REFUSED %d: SEE HOST" % refused
    if len(text) > core_screens.LCD_COLUMNS:         # 100 or more (14 seats of 50 zones: up to 700): the
        text = "REFUSED %d SEE HOST" % refused       # LCD cut it to "REFUSED 100: SEE HOS"
    return text


def result_lines(table, config, button_names):
    state = table.state
    if state != _COME_OUT and state != _POINT and state != _FAULTED:
        return ["CRAPS", "", "", ""]
    point = table.engine.point
    return ["POINT %d" % point if point else "PUCK OFF", _totals_text(table),
            "SHOOTER %d" % table.shooter, "ROLLS %d" % table.shooter_rolls]
