# The simulator's live screen: the table (hostsim.view), the latest host reports, the keys that exist.
#
# Sized at each render to the console it is drawn on: at most its width and
# height (80x24 is the smallest promised). The table part has a fixed height;
# the host reports panel gets the lines that are left and shows the latest
# reports that fit, each cut to one line.
from rich.console import Group
from rich.panel import Panel
from rich.segment import Segment
from rich.text import Text

from hostsim.view import render

MIN_REPORT_LINES = 1


def key_legend(keys):
    """`keys: d deal  c confirm ... q quit` for the [(key, role)] the board has."""
    return "keys: " + "  ".join("%s %s" % (key, role) for key, role in keys) + "  q quit"


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

    def __rich_console__(self, console, options):
        sim = self.sim
        width = options.max_width
        height = options.height or options.max_height
        table = Group(self.header(), render(sim.hw, sim.board, sim.game, width))
        table_lines = console.render_lines(table, options.update(height=None), pad=False)
        legend = Text(key_legend(sim.keys), style="dim", no_wrap=True, overflow="ellipsis")
        room = height - len(table_lines) - 1 - 2        # the legend, the reports panel's borders
        room = max(MIN_REPORT_LINES, room)
        lines = list(sim.tap.lines)[-room:]
        reports = Text("\n".join(lines) or "(none yet)", no_wrap=True, overflow="ellipsis")
        for line in table_lines:
            yield from line
            yield Segment.line()
        yield Panel(reports, title="host reports (latest last)", title_align="left", height=room + 2)
        yield legend
