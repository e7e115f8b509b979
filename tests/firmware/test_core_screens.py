# The table core's dealer-display texts (firmware/screens.py): an alarm's title on the 20-column LCD, and the
# banners that take the top line every other second (service mode on the even seconds, a settings change
# pending on the odd). Mutants of these lived (stop 66): the tests read the banner's presence, not its lines.
from firmware import fault_kinds, faults, screens


class _Table:
    def __init__(self, uptime_s):
        self.uptime_s = uptime_s


GAME = ["B01 BACCARAT", "ROUND 3", "DEAL", "UP 12s"]


def test_an_alarm_title_is_fault_and_its_name_when_both_fit_the_lcd_else_the_name():
    titles = 0
    for code in range(1, 80):
        name = fault_kinds.name(code)
        if name == "fault_%d" % code:                   # (a code no fault has: fault_kinds names it by number)
            continue
        titles += 1
        title = screens.fault_title(code)
        if len("FAULT " + name) <= screens.LCD_COLUMNS:   # 14 letters and FAULT: exactly the 20 columns
            assert title == "FAULT " + name.upper(), code
        else:
            assert title == name.upper()[:screens.LCD_COLUMNS], code
    assert titles > 30
    assert screens.fault_title(faults.DISPLAY_MISSING) == "DISPLAY_MISSING"       # 21: the name
    assert screens.fault_title(faults.FRAME_CONFLICT) == "FAULT FRAME_CONFLICT"   # 20: fits


def test_service_mode_takes_the_top_line_on_the_even_seconds_and_keeps_the_others():
    assert screens.service_banner(GAME, _Table(12)) == [screens.SERVICE_TEXT] + GAME[1:]
    assert screens.service_banner(GAME, _Table(13)) == GAME
    assert screens.service_banner([], _Table(12)) == []


def test_a_pending_change_takes_the_top_line_on_the_odd_seconds_and_keeps_the_others():
    assert screens.pending_banner(GAME, _Table(13)) == [screens.PENDING_TEXT] + GAME[1:]
    assert screens.pending_banner(GAME, _Table(12)) == GAME
    both = [screens.service_banner(screens.pending_banner(GAME, _Table(s)), _Table(s))[0] for s in range(4)]
    assert both == [screens.SERVICE_TEXT, screens.PENDING_TEXT] * 2     # each its second: neither hides the other
