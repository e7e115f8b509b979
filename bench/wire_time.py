# The wire time that follows the whole table's answer on a board: what the timed passes of
# bench/table_vm.py (the Baccarat last card and the display pass after it, the Craps CLOSE and throw,
# Omaha's last check) put on the I2C bus (both LCDs; the Baccarat scoreboard's OLED, a pass after them:
# firmware/main.py, show_outputs), on the WS2812 strip and on the host UART, counted
# byte by byte, and the time those bytes take on the board's wires (boards/pico.json's rates). The
# passes' CPU time is bench/whole_table.py's; this is what comes after it on the wires, which no VM
# figure holds (docs/performance.md, "The wire time after the answer").
#
#   .venv/bin/python bench/wire_time.py        (CPython: the same firmware code, counting bytes)
#
# And what each Baccarat result changes in the scoreboard's picture (bytes, pages, the smallest window
# holding the changes), over two shoes, against the whole picture show() sends.
#
# I2C, per transaction (writeto, or writevto's buffers as one): a start, the address byte and each data
# byte with its ACK (9 clocks each) and a stop, at the bus frequency, no clock stretching: the HD44780
# backpacks (PCF8574) and the SSD1306 ack every byte. WS2812: 30 us a pixel (24 bits at 800 kHz) and the
# 50 us latch. The host UART: 10 bits a byte (8N1) at the host's baud rate, for every frame the pass's
# reports made (PARTs included), from the first byte on the wire.
import json
import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import table_vm as tv  # noqa: E402

WS2812_US_PER_PIXEL = 30.0
WS2812_LATCH_US = 50.0
UART_BITS_PER_BYTE = 10            # start, 8 data, stop
I2C_CLOCKS_PER_BYTE = 9            # 8 bits and the ACK
I2C_FRAME_CLOCKS = 2               # the start and the stop conditions (about a clock each)


class BusCounter:
    """Counts the transactions, bytes and bus clocks written to one I2C bus object, by device address
    (its writeto/writevto wrapped)."""

    def __init__(self, i2c):
        self.by_addr = {}               # addr -> [transactions, bytes, clocks]
        writeto, writevto = i2c.writeto, i2c.writevto

        def counted_writeto(addr, buf, stop=True):
            self._add(addr, len(buf))
            return writeto(addr, buf, stop)

        def counted_writevto(addr, vector, stop=True):
            self._add(addr, sum(len(b) for b in vector))
            return writevto(addr, vector, stop)
        i2c.writeto, i2c.writevto = counted_writeto, counted_writevto

    def _add(self, addr, n):
        row = self.by_addr.setdefault(addr, [0, 0, 0])
        row[0] += 1
        row[1] += n
        row[2] += (n + 1) * I2C_CLOCKS_PER_BYTE + I2C_FRAME_CLOCKS


def board_rates(path="boards/pico.json"):
    with open(path) as f:
        board = json.load(f)
    return board["displays"]["i2c"]["freq"], board["ports"]["host"]["baudrate"]


class Wires:
    """One table's buses, counted: each display by its role (its I2C address in the board file)."""

    def __init__(self, t):
        self.t = t
        self.roles = {}                 # addr -> role
        seen = {}
        for role, display in t.ctx.hw.displays.items():
            self.roles[display.addr] = role
            if id(display.i2c) not in seen:
                seen[id(display.i2c)] = BusCounter(display.i2c)
        self.buses = list(seen.values())

    def snapshot(self):
        """{role: (transactions, bytes, clocks)}, the strip's writes, the host port's bytes."""
        displays = {}
        for bus in self.buses:
            for addr, row in bus.by_addr.items():
                displays[self.roles.get(addr, "0x%02x" % addr)] = tuple(row)
        return displays, self.t.strip.writes, self.t.host.total


def _delta(after, before):
    displays = {role: tuple(a - b for a, b in zip(row, before[0].get(role, (0, 0, 0))))
                for role, row in after[0].items()}
    return {role: row for role, row in displays.items() if row[0]}, after[1] - before[1], after[2] - before[2]


FIGURES = {}         # figure -> [({display role: (transactions, bytes, clocks)}, strip writes, host bytes)]
WIRES = {}           # id(table) -> its Wires
_PENDING = []        # (table, snapshot before a counted pass, snapshot after its answer), until finish()
_CURRENT = [None]    # the figure the passes being counted belong to


OLED_CHANGES = []    # per counted Baccarat pass: (bytes changed, pages changed, bytes of the smallest window)


def _oled_change(old, new, width):
    """What a pass changed in the scoreboard's picture: bytes, pages, and the smallest window (pages x
    columns) holding every change, in bytes."""
    changed = [i for i in range(len(new)) if old[i] != new[i]]
    if not changed:
        return 0, 0, 0
    pages = {i // width for i in changed}
    columns = [i % width for i in changed]
    return len(changed), len(pages), (max(pages) - min(pages) + 1) * (max(columns) - min(columns) + 1)


def _counted_answer(t):
    """t's answer pass, counted, then its link turn: the snapshots before and after the answer (what a
    Baccarat pass changed in the scoreboard's picture noted in OLED_CHANGES)."""
    wires = WIRES[id(t)]
    before = wires.snapshot()
    oled = t.ctx.hw.displays.get("scoreboard") if t.game == "baccarat" else None    # (others: a blank Panel)
    picture = bytes(oled.buffer) if oled is not None else None
    t.answer_pass()
    if oled is not None:
        OLED_CHANGES.append(_oled_change(picture, bytes(oled.buffer), oled.width))
    after = wires.snapshot()
    t.link_pass()
    return before, after


def _counted_pass(t):
    before, after = _counted_answer(t)
    _PENDING.append((t, before, after))
    return 0


def _counted_scoreboard_pass(t):
    """The display pass after a Baccarat result (table_vm.scoreboard_pass): the scoreboard's picture. Its
    link turn sends more of the result's frames, counted with the result's (_counted_finish)."""
    before, after = _counted_answer(t)
    displays, strip, _host = _delta(after, before)
    FIGURES.setdefault("baccarat scoreboard pass", []).append((displays, strip, 0))
    return 0


def _counted_finish(t):
    reports = t.finish()                 # the reports' frames all out on the host port
    if _PENDING and _PENDING[-1][0] is t:
        # The last counted pass before finish() (a Craps reading's CLOSE, not its OPEN and SEAT passes)
        _t, before, after = _PENDING[-1]
        del _PENDING[:]
        end = WIRES[id(t)].snapshot()
        # The displays and strip: the answer's own writes; the host: every frame its reports made.
        displays, strip, _host = _delta(after, before)
        FIGURES.setdefault(_CURRENT[0], []).append((displays, strip, end[2] - before[2]))
    return reports


def measure(rounds=3, baccarat_rounds=60):
    """The passes of bench/table_vm.py, counted (their timing replaced by counting); the pixel count."""
    plain = tv.timed_pass, tv.scoreboard_pass, tv.finish
    tv.timed_pass, tv.scoreboard_pass, tv.finish = _counted_pass, _counted_scoreboard_pass, _counted_finish
    try:
        return _count(rounds, baccarat_rounds)
    finally:
        tv.timed_pass, tv.scoreboard_pass, tv.finish = plain      # (a test process goes on with the module)


def _count(rounds, baccarat_rounds):
    tables = {game: tv.vmtable.Table(game) for game in ("baccarat", "craps", "omaha")}
    for t in tables.values():
        WIRES[id(t)] = Wires(t)
    bac = tables["baccarat"]
    FIGURES.setdefault("baccarat last card", [])             # (the result's figure first: its row comes last)
    tv.baccarat_shoe(bac)
    for k in range(baccarat_rounds):         # two shoes' worth: the roads fill and scroll
        _CURRENT[0] = "baccarat last card"
        tv.baccarat_next(bac, k)
    for _ in range(rounds):
        _CURRENT[0] = "craps reading"
        tv.craps_round(tables["craps"])
        rows = FIGURES.pop("craps reading")         # its passes, then the throw's (the last timed one)
        FIGURES.setdefault("craps throw", []).append(rows[-1])
        FIGURES.setdefault("craps CLOSE", []).append(rows[-2])
    for k in range(rounds):
        _CURRENT[0] = "omaha last check"
        tv.omaha_hand(tables["omaha"], 1 + k)
    return bac.ctx.board.pixel_count


def i2c_ms(clocks, freq):
    return clocks * 1000.0 / freq


def report(pixels, freq, baud, out=sys.stdout):
    """A line a figure: each display's I2C (its largest pass of the rounds, and their mean), the strip, the host's
    frames."""
    out.write("boards/pico.json: I2C at %d Hz, host UART at %d baud, %d pixels; ms on the wire after the"
              " pass's computation, the largest of its rounds\n" % (freq, baud, pixels))
    for name, rows in FIGURES.items():
        roles = sorted({role for displays, _s, _h in rows for role in displays})
        parts = []
        total = 0.0
        for role in roles:
            clocks = [displays.get(role, (0, 0, 0))[2] for displays, _s, _h in rows]
            nbytes = [displays.get(role, (0, 0, 0))[1] for displays, _s, _h in rows]
            total += i2c_ms(max(clocks), freq)
            parts.append("%s: %d bytes %.1f ms, mean %d bytes %.1f ms" % (
                role, max(nbytes), i2c_ms(max(clocks), freq), sum(nbytes) / len(rows),
                i2c_ms(sum(clocks) / len(rows), freq)))
        writes = max(s for _d, s, _h in rows)
        host = max(h for _d, _s, h in rows)
        out.write("%s: i2c_ms: %.1f (%s) strip_ms: %.2f (%d write(s)) host_bytes: %d host_ms: %.1f\n" % (
            name, total, "; ".join(parts) or "none", writes * (pixels * WS2812_US_PER_PIXEL + WS2812_LATCH_US)
            / 1000.0, writes, host, host * UART_BITS_PER_BYTE * 1000.0 / baud))


def report_oled(freq, out=sys.stdout):
    """What the Baccarat results changed on the scoreboard, against the whole picture each one sends."""
    changes = [c for c in OLED_CHANGES if c[0]]
    if not changes:
        return
    window = sum(c[2] for c in changes) / len(changes)
    out.write("scoreboard changes over %d results: bytes changed %d-%d, pages %d-%d; smallest window %.0f"
              " bytes on average (%.1f ms at the bus rate, the window command and control byte aside)\n"
              % (len(changes), min(c[0] for c in changes), max(c[0] for c in changes),
                 min(c[1] for c in changes), max(c[1] for c in changes), window,
                 i2c_ms((window + 1) * I2C_CLOCKS_PER_BYTE + I2C_FRAME_CLOCKS, freq)))


def main():
    freq, baud = board_rates()
    pixels = measure()
    report(pixels, freq, baud)
    report_oled(freq)


if __name__ == "__main__":
    main()
