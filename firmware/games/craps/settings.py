# Craps table settings (dispatch 53/2010): rule-bearing options and house limits, validated on construction.
#
# Same style as baccarat_settings.BaccaratSettings and omaha_settings.OmahaSettings:
# keywords in, validated in the constructor (SettingsError naming the setting),
# load_settings(dict) for the table file, as_pairs() for the audit log. Money and
# option numbers are ints in the table's unit (3.0 is not 3, True is not 1).
from firmware.errors import RuleError, SettingsError
from firmware.games.craps import bets as B

# The largest stake a bet reading can carry (firmware/drivers/bet_reader.py MAX_AMOUNT, docs/protocol.md
# "Bet reader"; tests check they agree): a minimum above it would refuse every bet the reader reads
# (art. 5(6)), a maximum above it would limit no stake a reading can put down.
_MAX_STAKE = const(999999999)

# Kinds a table may treat as "off" on a come-out roll (standing, not decided by it).
OFF_ON_COME_OUT_ALLOWED = ("come_odds", "dont_come_odds", "hard", "big_number")
# Kinds a table may let a player take down after they have been in action. Pass and Come are
# contract bets once they have a point (art. 5(2)(1), (5): decided only by the point or a 7).
TAKE_DOWN_ALLOWED = ("dont_pass", "dont_come", "pass_odds", "dont_pass_odds",
                     "come_odds", "dont_come_odds", "hard", "big_number")

SETTING_NAMES = ("minimum", "maximum", "field_12", "max_odds", "seats", "off_on_come_out",
                 "take_down", "shooter_change_on_come_out_craps", "max_open_bets")
# Settings that carry a rule (payouts, odds limit, art. 4 reading, working/take-down practice): the
# operator must state each one in table.json (never silently defaulted). The rest are house limits.
REQUIRED_SETTINGS = ("minimum", "field_12", "max_odds", "off_on_come_out", "take_down",
                     "shooter_change_on_come_out_craps")


_HOUSE_DEFAULTS = (("maximum", 0), ("seats", 14), ("max_open_bets", 256))


def is_int(v):
    # Money and option numbers are ints in the table's unit: not a float, not a bool.
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))   # the common case first


class CrapsSettings:
    """Validated table options as keywords (SETTING_NAMES; docs/craps.md for meanings and
    allowed values). The rule-bearing REQUIRED_SETTINGS must be given; the house limits
    default. A bad, unknown or missing value raises SettingsError here."""

    def __init__(self, **values):
        for key in values:
            if key not in SETTING_NAMES:
                raise SettingsError("unknown craps setting %r: expected one of %s" % (key, ", ".join(SETTING_NAMES)))
        for key in REQUIRED_SETTINGS:
            if key not in values:
                raise SettingsError("craps setting %r is required (it changes payouts or limits; never defaulted)"
                                    % key)
        for key, default in _HOUSE_DEFAULTS:
            setattr(self, key, values.get(key, default))
        self.minimum = values["minimum"]
        self.field_12 = values["field_12"]
        m = values["max_odds"]
        self.max_odds = tuple(m) if isinstance(m, (list, tuple)) else m
        self.off_on_come_out = values["off_on_come_out"]
        self.take_down = values["take_down"]
        self.shooter_change_on_come_out_craps = values["shooter_change_on_come_out_craps"]
        self._validate()

    def _validate(self):
        if not is_int(self.minimum) or not 1 <= self.minimum <= _MAX_STAKE:
            raise SettingsError("minimum must be a whole number of units 1..%d (art. 5(6); the largest stake a bet "
                                "reading carries), got %r" % (_MAX_STAKE, self.minimum))
        if not is_int(self.maximum) or self.maximum < 0 or (self.maximum and (
                self.maximum < self.minimum or self.maximum % self.minimum or self.maximum > _MAX_STAKE)):
            raise SettingsError("maximum must be 0 (no table maximum) or a multiple of the minimum >= it, up to %d "
                                "(the largest stake a bet reading carries), got %r" % (_MAX_STAKE, self.maximum))
        if not is_int(self.field_12) or (self.field_12 != 2 and self.field_12 != 3):
            raise SettingsError("field_12 must be 2 or 3 (Field pays 12 at 2:1 or 3:1, art. 6(12)), got %r"
                                % (self.field_12,))
        m = self.max_odds
        if not isinstance(m, tuple) or len(m) != 3 or not all(is_int(x) and 0 <= x <= 100 for x in m):
            raise SettingsError("max_odds must be 3 whole multiples 0..100 for points 4/10, 5/9, 6/8 "
                                "(e.g. [3, 4, 5]), got %r" % (self.max_odds,))
        if not is_int(self.seats) or not 1 <= self.seats <= 32:
            raise SettingsError("seats must be 1..32, got %r" % (self.seats,))
        self.off_on_come_out = _name_list("off_on_come_out", self.off_on_come_out, OFF_ON_COME_OUT_ALLOWED)
        self.take_down = _name_list("take_down", self.take_down, TAKE_DOWN_ALLOWED)
        if not isinstance(self.shooter_change_on_come_out_craps, bool):
            raise SettingsError("shooter_change_on_come_out_craps must be true or false (art. 4(2)), got %r"
                                % (self.shooter_change_on_come_out_craps,))
        if not is_int(self.max_open_bets) or not 1 <= self.max_open_bets <= 4096:
            raise SettingsError("max_open_bets must be 1..4096, got %r" % (self.max_open_bets,))
        # Kind codes for the hot path.
        self.off_codes = tuple(B.kind_code(n) for n in self.off_on_come_out)
        self.take_down_codes = tuple(B.kind_code(n) for n in self.take_down)

    def odds_multiple(self, point):
        """max_odds entry for a point: [0] for 4/10, [1] for 5/9, [2] for 6/8."""
        if point == 4 or point == 10:
            return self.max_odds[0]
        if point == 5 or point == 9:
            return self.max_odds[1]
        if point == 6 or point == 8:
            return self.max_odds[2]
        raise RuleError("%r is not a point: odds stand only on 4, 5, 6, 8, 9, 10 (art. 5(2)(2))" % (point,))

    def as_pairs(self):
        """The settings as (name, value) pairs in SETTING_NAMES order (audit log, reports)."""
        return tuple((key, getattr(self, key)) for key in SETTING_NAMES)


def _name_list(setting, value, allowed):
    if not isinstance(value, (list, tuple)):
        raise SettingsError("%s must be a list of bet types from: %s" % (setting, ", ".join(allowed)))
    out = []
    for v in value:
        if not isinstance(v, str) or v not in allowed:
            raise SettingsError("%s: %r not allowed; allowed bet types: %s" % (setting, v, ", ".join(allowed)))
        if v not in out:
            out.append(v)
    return tuple(out)


def load_settings(options):
    """dict of table options -> CrapsSettings (SettingsError naming the setting on a bad value)."""
    if isinstance(options, CrapsSettings):
        return options
    if not isinstance(options, dict):
        raise SettingsError("craps settings must be a dict")
    for key in options:
        if not isinstance(key, str):
            raise SettingsError("unknown craps setting %r: expected one of %s" % (key, ", ".join(SETTING_NAMES)))
    return CrapsSettings(**options)
