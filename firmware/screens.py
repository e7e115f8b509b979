# What the dealer and result displays show, as text lines (pure; the LCD driver draws them).
from firmware import fault_kinds

# copies of firmware.events (tests/host/test_const_copies.py)
_BUTTON = const(2)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)

STATE_TEXT = ("LAMP TEST", "READY", "FAULT", "LAMP CHECK")   # by table state


_BUTTON_TEXT = ("UP", "DOWN", "HELD")     # by BUTTON's b: released, pressed, long press
LCD_COLUMNS = 20          # the displays' width the screens are written for (the games' too)
LCD_ROWS = 4              # and their lines: a prompt or a hand on the 3rd and 4th (the board checks both)
# A bet reading refused whole (the reader's fault, or no room for its reports): the chips on the layout
# were not taken, and the dealer sees it until a reading is accepted (or the dice roll, the round starts).
BETS_NOT_READ = "BETS NOT READ"


def fault_title(code):
    """"FAULT NAME" for a dealer display; the name alone where both would not fit the 20-column LCD."""
    name = fault_kinds.name(code).upper()
    text = "FAULT " + name
    return text if len(text) <= LCD_COLUMNS else name[:LCD_COLUMNS]


def _last_input(table, button_names):
    if table.last_kind == _BUTTON:
        return "%s %s" % (button_names[table.last_a].upper(), _BUTTON_TEXT[table.last_b])
    return ""


def dealer_lines(table, config, button_names):
    state = STATE_TEXT[table.state]
    lines = ["%s %s" % (config["table_id"], config["game"].upper()), state]
    if table.state == _FAULTED:
        lines[1] = fault_title(table.fault_code)
        lines.append("CONFIRM TO ACK")
    else:
        lines.append(_last_input(table, button_names))
    lines.append("UP %ds" % table.uptime_s)
    return lines


def result_lines(table, config, button_names):
    return [config["game"].upper(), ""]     # a result is a game's: its own screens show it


PENDING_TEXT = "SETTINGS PENDING"
SERVICE_TEXT = "SERVICE MODE"


def closed_lines(table, config, why):
    """A table held closed (Table.hold_closed): what, why (e.g. the file that differs), and that it stays so."""
    return ["%s %s" % (config["table_id"], config["game"].upper()), fault_kinds.name(table.closed_code).upper(),
            why, "TABLE CLOSED"]


def service_banner(lines, table):
    """Service mode (the REPL is open): the top line reads SERVICE MODE every other second, so the
    dealer sees it whatever the game shows, and the game's own top line is not lost."""
    if table.uptime_s % 2 == 0 and lines:
        lines = [SERVICE_TEXT] + list(lines[1:])
    return lines


def pending_banner(lines, table):
    """A settings change committed and waiting for its boundary (firmware/settings_change.py): the top line
    reads SETTINGS PENDING every other second (the odd ones: service mode's are the even)."""
    if table.uptime_s % 2 == 1 and lines:
        lines = [PENDING_TEXT] + list(lines[1:])
    return lines
