# Which display pass draws what (firmware/main.py, show_outputs): the LCDs answer in the pass that changed
# them; the Baccarat scoreboard, a history whose 1 KB picture holds the I2C bus ~23 ms on a board, waits one
# display pass when the LCDs were drawn in it, and never more (runs on MicroPython too).
from firmware import main
from tests.firmware.booted import boot_pico
from tests.firmware.scratch import ScratchDir


class _Counted:
    """What the pass drew: LCD shows and scoreboard shows (the OLED's I2C transactions)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.oled = ctx.game.scoreboard[1]
        self.dealer = ctx.hw.displays["dealer"]
        self.oled_sent = self.oled.transmits

    def display_pass(self, lcd_changed, scoreboard_changed, draw=True):
        table = self.ctx.table
        self.dealer.lines = []                     # a drawn LCD shows its lines again
        if lcd_changed:
            table.display_dirty = True
        if scoreboard_changed:
            table.scoreboard_dirty = True
        main.show_outputs(self.ctx, draw)
        lcd = self.dealer.lines != []
        sent = self.oled.transmits - self.oled_sent
        self.oled_sent = self.oled.transmits
        return lcd, sent > 0


def _booted(state):
    ctx = boot_pico(state, "baccarat")
    counted = _Counted(ctx)
    counted.display_pass(False, False)             # nothing pending
    return ctx, counted


def test_a_result_s_pass_draws_the_lcds_and_the_next_display_pass_the_scoreboard():
    with ScratchDir() as state:
        ctx, passes = _booted(state)
        assert passes.display_pass(True, True) == (True, False)           # the result: the LCDs answer
        assert ctx.table.scoreboard_dirty                                 # the scoreboard kept for later
        assert passes.display_pass(False, False, draw=False) == (False, False)   # not a display pass
        assert passes.display_pass(False, False) == (False, True)         # the next display pass
        assert not ctx.table.scoreboard_dirty
        assert passes.display_pass(False, False) == (False, False)        # drawn once


def test_the_scoreboard_alone_is_drawn_in_its_own_pass():
    with ScratchDir() as state:
        _ctx, passes = _booted(state)
        assert passes.display_pass(False, True) == (False, True)


def test_lcds_changed_every_pass_delay_the_scoreboard_one_pass_only():
    with ScratchDir() as state:
        ctx, passes = _booted(state)
        assert passes.display_pass(True, True) == (True, False)
        assert passes.display_pass(True, False) == (True, True)           # waited once: drawn with them
        assert passes.display_pass(True, True) == (True, False)           # the next result waits again
        assert passes.display_pass(True, True) == (True, True)
        assert not ctx.table.scoreboard_dirty


def test_the_scoreboard_shows_the_roads_of_the_pass_that_draws_it():
    import framebuf
    from firmware.games.baccarat.scoreboard import Scoreboard
    with ScratchDir() as state:
        ctx, passes = _booted(state)
        oled = passes.oled
        before = bytes(oled.buffer)
        roads = ctx.table.roads
        roads.add(1)                                   # a banker win (rules.BANKER), no pair
        passes.display_pass(True, True)
        assert bytes(oled.buffer) == before            # not drawn yet
        passes.display_pass(False, False)
        want = bytearray(len(oled.buffer))
        Scoreboard(framebuf.FrameBuffer(want, oled.width, oled.height, framebuf.MONO_VLSB), oled.width,
                   oled.height).draw(roads)
        assert bytes(oled.buffer) == bytes(want) != before
