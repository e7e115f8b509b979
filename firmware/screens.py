# What the dealer and result displays show, as text lines (pure; the LCD driver draws them).
from firmware import faults
from firmware import events
from firmware import table as table_mod

STATE_TEXT = ("LAMP TEST", "READY", "FAULT", "LAMP CHECK")   # by table state


_BUTTON_TEXT = ("UP", "DOWN", "HELD")     # by BUTTON's b: released, pressed, long press


def _last_input(table, button_names):
    if table.last_kind == events.BUTTON:
        return "%s %s" % (button_names[table.last_a].upper(), _BUTTON_TEXT[table.last_b])
    return ""


def dealer_lines(table, config, button_names):
    state = STATE_TEXT[table.state]
    lines = ["%s %s" % (config["table_id"], config["game"].upper()), state]
    if table.state == table_mod.FAULTED:
        lines[1] = "FAULT " + faults.name(table.fault_code).upper()
        lines.append("CONFIRM TO ACK")
    else:
        lines.append(_last_input(table, button_names))
    lines.append("UP %ds" % table.uptime_s)
    return lines


def result_lines(table, config, button_names):
    return [config["game"].upper(), ""]     # a result is a game's: its own screens show it
