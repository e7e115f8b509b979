# Omaha table settings (regulated options, validated at load): structure, blinds, rake, odd chip, seats.
#
# Every option the regulation leaves to the house, or that a reading of the
# text decides, is a setting here; a bad value raises SettingsError naming the
# setting and its allowed values. Amounts are ints in the table's smallest unit.
from firmware.errors import SettingsError

# copies of firmware.games.omaha.entry (tests/host/test_const_copies.py)
_MAX_NUMBER = const(9999999)

POT_LIMIT = "pot_limit"  # art. 11(2): the "limit game", bet/raise at most the pot
NO_LIMIT = "no_limit"  # art. 11(3)
# The options' tuples below are literals of the names above (test_kept_literals compares): constants in flash
# when frozen; made at import from the names they kept 3 x 16 bytes of the heap in the VM (in ROMFS a literal
# tuple is made in RAM at load, its strings not; issue 14).
STRUCTURES = ("pot_limit", "no_limit")

ODD_CHIP_CROUPIER = "croupier"  # art. 10(5) reading: first tied winner from the croupier's left
ODD_CHIP_BUTTON = "button"  # option: first tied winner from the button's left
ODD_CHIP_RULES = ("croupier", "button")

# Art. 12(4) "heads-up, the raise amount is not limited":
HEADS_UP_NO_RAISE_CAP = "no_raise_cap"  # reading: the 3-raise cap of art. 12(2) is lifted
HEADS_UP_NO_LIMIT = "no_limit"  # alternative: heads-up also lifts the pot-size limit
HEADS_UP_RULES = ("no_raise_cap", "no_limit")

# Art. 16: 3% to 5% of each pot, in tenths of a percent (the reading, docs/omaha.md): rake_percent 3, 3.1,
# ... 5 (rake_tenths 30..50); 0 = no rake (e.g. tournament, art. 4(2)).
_RAKE_TENTHS_MIN = const(30)
_RAKE_TENTHS_MAX = const(50)
_RAKE_CAP_MAX_BIG_BLINDS = const(5)  # art. 16: at most five big blinds
POT_LIMIT_RAISE_CAP = 3  # art. 12(2): at most 3 raises per betting round
_MIN_SEATS = const(2)
_MAX_SEATS = const(20)  # art. 2: 10 seats, the house may use more
MIN_PLAYERS = 2  # art. 2(3)
MAX_PLAYERS = 11  # one 52-card deck: 4 hole cards each + 3 burns + 5 board (art. 1(1)(3))

# Every setting is required: regulated options are never silently defaulted.
SETTING_NAMES = ("structure", "small_blind", "big_blind", "rake_percent", "rake_cap_big_blinds",
                 "odd_chip", "heads_up", "seats")


def _int(key, value, low, high=None):
    if not isinstance(value, int) or isinstance(value, bool):
        raise SettingsError("setting %s must be a whole number, got %r" % (key, value))
    if value < low or (high is not None and value > high):
        if high is None:
            raise SettingsError("setting %s must be at least %d, got %d" % (key, low, value))
        raise SettingsError("setting %s must be %d..%d, got %d" % (key, low, high, value))
    return value


def _choice(key, value, allowed, article):
    if value not in allowed:
        raise SettingsError("setting %s must be one of %s (Omaha art. %s), got %r"
                            % (key, ", ".join(allowed), article, value))
    return value


class OmahaSettings:
    """One table's validated Omaha options, all required (SETTING_NAMES, docs/omaha.md)."""

    def __init__(self, **values):
        for key in values:
            if key not in SETTING_NAMES:
                raise SettingsError("unknown Omaha setting %r: expected %s" % (key, ", ".join(SETTING_NAMES)))
        for key in SETTING_NAMES:
            if key not in values:
                raise SettingsError("Omaha setting %r missing: it is a regulated option and has no default"
                                    % (key,))
        self.structure = _choice("structure", values["structure"], STRUCTURES, "11")
        self.small_blind = _int("small_blind", values["small_blind"], 1)
        # At most the largest stack the table takes (keyed or from the host): a bigger blind is no game,
        # every hand all in on the blinds (a typo's extra zeros would open such a table).
        self.big_blind = _int("big_blind", values["big_blind"], 1, _MAX_NUMBER)
        if self.small_blind > self.big_blind:
            raise SettingsError("setting small_blind (%d) must not exceed big_blind (%d) (art. 5)"
                                % (self.small_blind, self.big_blind))
        # The rake in tenths of a percent: the money is worked out in whole units from it (pots.rake_pots),
        # never through a float; rake_percent is the value as the table file gives it (5, or 3.5).
        self.rake_tenths = rake_tenths(values["rake_percent"])
        tenths = self.rake_tenths
        self.rake_percent = tenths // 10 if tenths % 10 == 0 else tenths / 10
        self.rake_cap_big_blinds = _int("rake_cap_big_blinds", values["rake_cap_big_blinds"],
                                        1, _RAKE_CAP_MAX_BIG_BLINDS)
        self.odd_chip = _choice("odd_chip", values["odd_chip"], ODD_CHIP_RULES, "10(5)")
        self.heads_up = _choice("heads_up", values["heads_up"], HEADS_UP_RULES, "12(4)")
        self.seats = _int("seats", values["seats"], _MIN_SEATS, _MAX_SEATS)

    def copy(self):
        """A freshly validated copy: a hand plays under the options it started with,
        checked again, whatever happens to the table's object meanwhile."""
        return OmahaSettings(**dict(self.as_pairs()))

    @property
    def rake_cap(self):
        """The most rake one hand may pay, in units (art. 16: cap x big blind)."""
        return self.rake_cap_big_blinds * self.big_blind

    def as_pairs(self):
        """The settings as (name, value) pairs in a fixed order (audit log, reports)."""
        return tuple((key, getattr(self, key)) for key in SETTING_NAMES)


def rake_tenths(percent):
    """rake_percent (a table file's, the console's) -> tenths of a percent: 0 (no rake) or 30..50 (art. 16:
    3% to 5%, settable to a tenth of a percent: 3.5 -> 35). SettingsError for anything else: a finer
    fraction (3.25), a value out of the range (2.9, 5.1), a bool or a text."""
    tenths = None
    if isinstance(percent, int) and not isinstance(percent, bool):
        tenths = percent * 10 if 0 <= percent <= 5 else None
    elif isinstance(percent, float) and 0 <= percent <= 5.05:      # (NaN and infinities fail the test)
        tenths = int(round(percent * 10))
        # Not a whole tenth (1e-5 off at most): the same answer on a single-precision port (an RP2040's floats
        # are 32-bit), where a tenth times ten is off by under 4e-6; 0.001 took 3.0001 there, and 2.99999
        # everywhere, for 3% (tests/host/test_rake_single_precision.py).
        if abs(percent * 10 - tenths) > 1e-5:
            tenths = None
    if tenths is None or tenths != 0 and not _RAKE_TENTHS_MIN <= tenths <= _RAKE_TENTHS_MAX:
        raise SettingsError("setting rake_percent must be 0 (no rake) or 3 to 5 in tenths of a percent "
                            "(3, 3.1, ..., 5) (art. 16), got %r" % (percent,))
    return tenths


def load_settings(values):
    """Dict of settings (e.g. from the board's table file) -> OmahaSettings."""
    if not isinstance(values, dict):
        raise SettingsError("Omaha settings must be a dict of name -> value")
    for key in values:
        if not isinstance(key, str):
            raise SettingsError("unknown Omaha setting %r: expected %s" % (key, ", ".join(SETTING_NAMES)))
    return OmahaSettings(**values)


def unlimited_size(settings, heads_up):
    """May a bet or raise be any size up to all-in now? Art. 11(3) no-limit: yes;
    art. 11(2) pot-limit: no, unless heads-up under the "no_limit" reading of 12(4)."""
    if settings.structure == NO_LIMIT:
        return True
    if settings.structure != POT_LIMIT:
        raise SettingsError("unknown Omaha structure %r (art. 11)" % (settings.structure,))
    if not heads_up:
        return False
    if settings.heads_up == HEADS_UP_NO_LIMIT:
        return True
    if settings.heads_up == HEADS_UP_NO_RAISE_CAP:
        return False
    raise SettingsError("unknown Omaha heads_up rule %r (art. 12(4))" % (settings.heads_up,))


def raise_cap_applies(settings, heads_up):
    """Art. 12(2): at most POT_LIMIT_RAISE_CAP raises a round in the limit game;
    heads-up, either reading of art. 12(4) lifts it; no-limit has none."""
    if settings.structure == NO_LIMIT:
        return False
    if settings.structure != POT_LIMIT:
        raise SettingsError("unknown Omaha structure %r (art. 11)" % (settings.structure,))
    return not heads_up


def odd_chip_from_button(settings):
    """Art. 10(5): does the odd chip go first from the button's left (option) rather
    than the croupier's left (reading)?"""
    if settings.odd_chip == ODD_CHIP_CROUPIER:
        return False
    if settings.odd_chip == ODD_CHIP_BUTTON:
        return True
    raise SettingsError("unknown Omaha odd_chip rule %r (art. 10(5))" % (settings.odd_chip,))
