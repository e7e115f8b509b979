# The simulator's live screen: the table (hostsim.view), the latest host reports, the keys that exist.
#
# Sized at each render to the console it is drawn on: at most its width and
# height (80x24 is the smallest promised). The table part has a fixed height;
# the host reports panel gets the lines that are left and shows the latest
# reports that fit, each cut to one line.
#
# A Baccarat table has two faces, switched with the `o` key (sim.show_scoreboard):
# the table (lights, dealer and result LCDs, serial ports) and the scoreboard
# (its OLED at half size, the lights beside it). The table face also shows the
# scoreboard below the LCDs when the terminal is tall enough for both.
from rich.console import Group
from rich.panel import Panel
from rich.segment import Segment
from rich.text import Text

from hostsim.keypad import legend_lines
from hostsim.oled import find_oled
from hostsim.view import render, render_scoreboard, scoreboard_panel, scoreboard_height

MIN_REPORT_LINES = 1
_PANEL_BORDERS = 2


def key_legend(keys, cable_key=""):
    """`keys: d deal  c confirm ...  l LCD cable  q quit` for the [(key, role)] the board has (cable_key: the
    dealer LCD's cable pulled or reseated, hostsim.sim.CABLE_KEY)."""
    shown = ["%s %s" % (key, role) for key, role in keys]
    if cable_key:
        shown.append("%s LCD cable" % cable_key)
    return "keys: " + "  ".join(shown) + "  q quit"


def extra_legend(fault_keys, scoreboard_key):
    """`faults: 1 unreadable card ...  view: o scoreboard`, or "" when there is neither."""
    parts = []
    if fault_keys:
        parts.append("faults: " + "  ".join("%s %s" % (key, text) for key, _, text in fault_keys))
    if scoreboard_key:
        parts.append("view: %s scoreboard" % scoreboard_key)
    return "   ".join(parts)


class Screen:
    def __init__(self, sim):
        self.sim = sim

    def header(self):
        sim = self.sim
        board = sim.board
        text = Text(no_wrap=True, overflow="ellipsis", style="bold cyan")
        text.append("table %s (%s) on board %s: %s" % (sim.config["table_id"], sim.game, board.name,
                                                        board.description or board.mcu))
        return text

    def legends(self):
        sim = self.sim
        out = []
        extra = extra_legend(sim.fault_keys, sim.scoreboard_key)
        if extra:
            out.append(Text(extra, style="dim", no_wrap=True, overflow="ellipsis"))
        for line in legend_lines(sim.keypad_keys):          # only when the table keys its keypad
            out.append(Text(line, style="dim", no_wrap=True, overflow="ellipsis"))
        out.append(Text(key_legend(sim.keys, sim.cable_key), style="dim", no_wrap=True, overflow="ellipsis"))
        return out

    def table_part(self, width, height, spare):
        """The header and the table's face; spare(lines) says whether that many more lines still fit."""
        sim = self.sim
        if sim.show_scoreboard:
            return Group(self.header(), render_scoreboard(sim.hw, sim.board, sim.game, width, sim.tap.link_boot()))
        parts = [self.header(), render(sim.hw, sim.board, sim.game, width, sim.tap.link_boot())]
        if sim.scoreboard_key and find_oled(sim.hw) is not None and spare(scoreboard_height(sim.hw)):
            parts.append(scoreboard_panel(sim.hw))
        return Group(*parts)

    def __rich_console__(self, console, options):
        sim = self.sim
        width = options.max_width
        height = options.height or options.max_height
        legends = self.legends()
        plain = Group(self.header(), render(sim.hw, sim.board, sim.game, width, sim.tap.link_boot()))
        fixed = len(console.render_lines(plain, options.update(height=None), pad=False)) + len(legends)
        fixed += _PANEL_BORDERS + MIN_REPORT_LINES

        def spare(lines):
            return height - fixed >= lines

        table = self.table_part(width, height, spare)
        table_lines = console.render_lines(table, options.update(height=None), pad=False)
        room = height - len(table_lines) - len(legends) - _PANEL_BORDERS
        room = max(MIN_REPORT_LINES, room)
        lines = list(sim.tap.lines)[-room:]
        reports = Text("\n".join(lines) or "(none yet)", no_wrap=True, overflow="ellipsis")
        status = sim.dealer.status(sim.hw.clock.now_ms()) if sim.dealer is not None else ""
        for line in table_lines:
            yield from line
            yield Segment.line()
        yield Panel(reports, title="host reports (latest last)", title_align="left", height=room + 2,
                    subtitle=Text(status, style="bold yellow") if status else None, subtitle_align="right")
        for legend in legends:
            yield legend
