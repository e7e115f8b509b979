# What a person sees of the simulated table: bet-zone lights, the two LCDs, serial ports, watchdog, virtual time.
#
# render(hardware, board, game) returns a rich renderable, built fresh from
# the Hardware's recorded state each time; `make sim` puts it in a rich Live
# display, tests render it to a string. `board` is the board description as
# a dict (boards/sim.json) or a firmware.board.Board.
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from hostsim.hardware import RESET_NAMES, USB, board_section
from hostsim.oled import find_oled

LCD_ON = "bold black on dark_olive_green2"
LCD_DARK = "grey58 on grey15"
OFF_STYLE = "grey35"


def _pixel_pin(board):
    if isinstance(board, dict):
        return board.get("pixels", {}).get("pin")
    return getattr(board, "pixel_pin", None)


def _visible(rgb):
    """Terminal colour for an LED colour: hue kept, brightness stretched (a 60/255 LED still reads red)."""
    top = max(rgb[:3])
    if top == 0:
        return None
    r, g, b = (int(c * 255 / top) for c in rgb[:3])
    return "rgb(%d,%d,%d)" % (r, g, b)


def _zone_colours(strip_pixels, ranges):
    out = []
    for first, last in ranges:
        for i in range(first, last + 1):
            out.append(tuple(strip_pixels[i]) if i < len(strip_pixels) else None)
    return out


def zone_cell(name, colours):
    """One zone: a two-character swatch (two colours side by side for a mixed zone), then the name."""
    text = Text()
    lit = [c for c in colours if c is not None and max(c[:3]) > 0]
    if not lit:
        text.append("\u25cb\u25cb ", style=OFF_STYLE)
        text.append(name, style=OFF_STYLE)
        return text
    distinct = []
    for c in colours:
        if c not in distinct:
            distinct.append(c)
    swatch = distinct[:2] if len(distinct) > 1 else distinct * 2
    for c in swatch:
        style = _visible(c) if c is not None else None
        text.append("\u2588" if style else "\u25cb", style=style or OFF_STYLE)
    text.append(" " + name, style="bold")
    return text


ZONE_GAP = 2


def zones_panel(hardware, board, game, width=80):
    """The game's bet zones in as many columns as `width` holds (a swatch and the name each)."""
    zones = board_section(board, "zones").get(game)
    pin = _pixel_pin(board)
    strip = hardware.strips.get(pin) if pin is not None else None
    pixels = strip.pixels() if strip is not None else []
    grid = Table.grid(padding=(0, ZONE_GAP, 0, 0))
    if not zones:
        grid.add_column()
        grid.add_row(Text("board has no zone map for %r" % game, style="red"))
    else:
        cell_width = 3 + max(len(name) for name in zones)
        columns = max(1, (width - 4 + ZONE_GAP) // (cell_width + ZONE_GAP))
        for _ in range(columns):
            grid.add_column(no_wrap=True)
        cells = [zone_cell(name, _zone_colours(pixels, ranges)) for name, ranges in zones.items()]
        for i in range(0, len(cells), columns):
            grid.add_row(*cells[i:i + columns])
    writes = strip.writes if strip is not None else 0
    subtitle = "GPIO %s, %d pixels, %d writes" % (pin, len(pixels), writes)
    return Panel(grid, title="bet-zone lights: %s" % game, subtitle=subtitle, border_style="cyan")


def lcd_panel(role, device, spec):
    cols, rows = spec.get("cols", 20), spec.get("rows", 4)
    title = "%s LCD 0x%02x" % (role, spec.get("addr", 0))
    if device is None or not hasattr(device, "lines"):
        body = Text("\n".join(["(no device attached)".ljust(cols)] + [" " * cols] * (rows - 1)), style=LCD_DARK)
        return Panel(body, title=title, border_style="red", expand=False)
    lines = device.lines() if device.display_on else [" " * cols] * rows
    style = LCD_ON if device.backlight else LCD_DARK
    body = Text("\n".join(lines), style=style)
    state = []
    if not device.backlight:
        state.append("backlight off")
    if not device.display_on:
        state.append("display off")
    return Panel(body, title=title, subtitle=", ".join(state) or None, border_style="green", expand=False)


def _lcd_panels(hardware, board):
    displays = board_section(board, "displays")
    if not displays or "i2c" not in displays:
        return [Text("no displays on this board", style="dim")]
    bus = displays["i2c"]["bus"]
    panels = []
    for role, spec in displays.items():
        if role == "i2c" or "addr" not in spec or spec.get("kind") == "ssd1306":
            continue                    # an OLED's picture does not fit here: hw.i2c_device(...).to_text()
        panels.append(lcd_panel(role, hardware.i2c_device(bus, spec["addr"]), spec))
    return panels


def displays_panel(hardware, board):
    """The LCDs side by side."""
    panels = _lcd_panels(hardware, board)
    grid = Table.grid(padding=(0, 1))
    for _ in panels:
        grid.add_column()
    grid.add_row(*panels)
    return grid


def ports_table(hardware, board):
    """One row per serial port: role(s), UART id or USB, where a person attaches (pty path)."""
    table = Table.grid(padding=(0, 1), pad_edge=True)
    paths = hardware.port_paths()
    # The path is what a person types into picocom: it is never cut (a busy host hands out
    # /dev/pts/140); the role gives way first, then the UART's name.
    table.add_column(no_wrap=True, overflow="ellipsis", min_width=4)
    table.add_column(no_wrap=True, overflow="ellipsis", min_width=3)
    table.add_column(no_wrap=True, min_width=max([len(path or "loopback") for _, _, path in paths] + [4]))
    listed = set()
    for role, uid, path in paths:
        where = path if path else "loopback"
        table.add_row(role or "?", _port_name(uid), where)
        for r in (role or "").split("/"):
            listed.add(r)
    for role, spec in board_section(board, "ports").items():
        if role not in listed:
            uid = USB if spec.get("usb") else "pio%s.%s" % (spec["pio"], spec["sm"]) if "pio" in spec \
                else spec.get("uart", "?")
            table.add_row(role, _port_name(uid), "(not opened)")
    return Panel(table, title="serial ports", title_align="left", padding=(0, 0), border_style="blue")


def _port_name(uid):
    """USB, UART3, PIO0 (a PIO UART in PIO block 0: "pio0.2" has state machines 2 and 3; five columns fit)."""
    if uid == USB:
        return "USB"
    if isinstance(uid, str) and uid.startswith("pio"):
        return uid.split(".")[0].upper()
    return "UART%s" % uid


def status_line(hardware, link_boot=None):
    """link_boot: the firmware's boot counter (kept on flash, in every host-link frame) as the host last
    saw it; `hardware.boots` counts only the starts of this simulator run."""
    wdt = hardware.watchdog
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("virtual time %.3f s" % (hardware.clock.now_ms() / 1000.0), style="bold")
    cause = RESET_NAMES.get(hardware.reset_cause, hardware.reset_cause)
    if link_boot is None:
        text.append("  start #%d of this run (%s)" % (hardware.boots, cause))
    else:
        text.append("  boot #%d (%s), start #%d of this run" % (link_boot, cause, hardware.boots))
    text.append("  watchdog: ")
    if not wdt.started:
        text.append("not started", style="yellow")
    elif wdt.expired():
        text.append("EXPIRED (timeout %d ms)" % wdt.timeout_ms, style="bold red")
    else:
        text.append("%d ms left of %d" % (wdt.remaining_ms(), wdt.timeout_ms), style="green")
    return text


SCOREBOARD_STYLE = "bold bright_white on black"
NO_SCOREBOARD = "(no scoreboard on this board)"


def scoreboard_panel(hardware):
    """The scoreboard OLED (a hostsim.oled.SimSSD1306 on the board's I2C) at half size: a title line, then
    its glass in half-block characters (64x16 for 128x64); one line when the board has none."""
    device = find_oled(hardware)
    if device is None:
        return Text("scoreboard: " + NO_SCOREBOARD, style="dim", no_wrap=True, overflow="ellipsis")
    where = next(key for key, d in sorted(hardware.i2c_devices.items()) if d is device)
    title = Text("scoreboard OLED %dx%d, I2C %d 0x%02x" % (device.width, device.height, where[0], where[1]),
                 style="bold", no_wrap=True, overflow="ellipsis")
    if not device.lit:
        title.append("  (dark)", style="yellow")
    return Group(title, Text(device.to_text(scale=2), style=SCOREBOARD_STYLE, no_wrap=True))


def scoreboard_height(hardware):
    """Lines scoreboard_panel() takes."""
    device = find_oled(hardware)
    return 1 if device is None else 1 + (device.height // 2 + 1) // 2


def zone_list(hardware, board, game):
    """The game's bet zones one under the other (a swatch and the name each): beside the scoreboard."""
    zones = board_section(board, "zones").get(game) or {}
    pin = _pixel_pin(board)
    strip = hardware.strips.get(pin) if pin is not None else None
    pixels = strip.pixels() if strip is not None else []
    lines = Text(no_wrap=True, overflow="ellipsis")
    for i, (name, ranges) in enumerate(zones.items()):
        if i:
            lines.append("\n")
        lines.append_text(zone_cell(name, _zone_colours(pixels, ranges)))
    return lines


def render_scoreboard(hardware, board, game, width=80, link_boot=None):
    """The scoreboard with the bet-zone lights beside it, then the status line: render()'s other face."""
    row = Table.grid(padding=(0, 1))
    row.add_column(no_wrap=True)
    row.add_column(no_wrap=True, overflow="ellipsis")
    row.add_row(scoreboard_panel(hardware), zone_list(hardware, board, game))
    return Group(row, status_line(hardware, link_boot))


def render(hardware, board, game, width=80, link_boot=None):
    """The whole simulated table as one rich renderable, at most `width` columns and 15 to 20 lines.

    Zones on top (columns fitted to the width), the LCDs with the serial
    ports beside them, then one status line; 80x24 leaves room below for the
    simulator's host reports and key legend.
    """
    middle = Table.grid(padding=(0, 1), expand=True)
    panels = _lcd_panels(hardware, board) + [ports_table(hardware, board)]
    for _ in panels[:-1]:
        middle.add_column()
    middle.add_column(ratio=1)
    middle.add_row(*panels)
    return Group(
        zones_panel(hardware, board, game, width),
        middle,
        status_line(hardware, link_boot),
    )
