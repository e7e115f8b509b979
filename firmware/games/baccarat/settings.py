# Baccarat table settings (art. 18: regulated options, validated on construction).
#
# Every option the regulation leaves to the house is a setting here; a bad,
# unknown or missing value raises SettingsError naming the setting, its
# allowed values and the article. Types are strict: True is not method 1,
# 1.0 is not 1, "8" is not 8 decks. Same style as craps.CrapsSettings and
# omaha_settings.OmahaSettings: keywords in, validated in the constructor,
# load_settings(dict) for the table file, as_pairs() for the audit log.
from firmware.errors import SettingsError

# (name, allowed values, article). Order matters for messages and reports.
SETTINGS_SPEC = (
    ("method", (1, 2), "art. 9"),
    ("commission", ("A", "B"), "art. 17"),
    ("tie_option", ("returned", "standing", "changeable"), "art. 11"),
    ("decks", (6, 7, 8, 9, 10, 11, 12), "art. 1"),
    ("burn", ("decks", "first_card", "first_card_points"), "art. 2(1)"),
    ("cut_card", ("last_round", "one_more"), "art. 3(1)"),
    ("demo_rounds", (0, 1, 2, 3), "art. 2(2)"),
    ("dealer", ("shoe", "auto_shuffler"), "arts. 2(3), 7(2)"),
    ("burn_each_round", (False, True), "art. 8"),
)
ROUND_SETTINGS = ("method", "commission", "tie_option")
# SETTINGS_SPEC's names in turn (test_kept_literals compares): a literal, one constant in flash when frozen
# (made at import from SETTINGS_SPEC it kept 64 bytes of the heap in the VM; in ROMFS a literal tuple is still made
# in RAM at load, its strings not; issue 14).
SETTING_NAMES = ("method", "commission", "tie_option", "decks", "burn", "cut_card", "demo_rounds", "dealer",
                 "burn_each_round")


def _check_setting(name, value):
    for spec_name, allowed, article in SETTINGS_SPEC:
        if spec_name != name:
            continue
        # Strict types: True is not method 1, 1.0 is not 1, "8" is not 8 decks.
        ok = type(value) is type(allowed[0]) and value in allowed
        if not ok:
            raise SettingsError("setting %r = %r not allowed: expected one of %s (Baccarat %s)"
                                % (name, value, ", ".join(repr(a) for a in allowed), article))
        return value
    raise SettingsError("unknown Baccarat setting %r: expected %s" % (name, ", ".join(SETTING_NAMES)))


class BaccaratSettings:
    """Validated Baccarat options, as keywords (SETTING_NAMES). The round options
    (method, commission, tie_option) are always required; a Shoe needs them all
    (load_settings). A bad or unknown value raises SettingsError here."""

    def __init__(self, **values):
        for name in values:
            _check_setting(name, values[name])
        for name in ROUND_SETTINGS:
            if name not in values:
                raise SettingsError("Baccarat setting %r missing: it is a regulated option and has no default"
                                    % (name,))
        for name in values:
            setattr(self, name, values[name])

    def as_pairs(self):
        """The settings given, as (name, value) pairs in SETTING_NAMES order (audit log, reports)."""
        out = []
        for name in SETTING_NAMES:
            if hasattr(self, name):
                out.append((name, getattr(self, name)))
        return tuple(out)


def load_settings(values):
    """Dict of the table's settings -> BaccaratSettings. Every setting is required:
    regulated options are never silently defaulted (art. 18)."""
    if not isinstance(values, dict):
        raise SettingsError("Baccarat settings must be a dict of name -> value")
    for name in values:
        if not isinstance(name, str):
            raise SettingsError("unknown Baccarat setting %r: expected %s" % (name, ", ".join(SETTING_NAMES)))
    for name in SETTING_NAMES:
        if name not in values:
            raise SettingsError("Baccarat setting %r missing: it is a regulated option and has no default"
                                % (name,))
    return BaccaratSettings(**values)


def round_settings(method, commission, tie_option="returned"):
    """Settings for one round only (judge, odds): method, commission, tie option."""
    return BaccaratSettings(method=method, commission=commission, tie_option=tie_option)


def check_settings(settings):
    """settings, if it is a BaccaratSettings (else SettingsError)."""
    if not isinstance(settings, BaccaratSettings):
        raise SettingsError("Baccarat settings must be a BaccaratSettings (load_settings), got %r" % (settings,))
    return settings


def check_method(method):
    """method, if it is 1 or 2 (else SettingsError)."""
    # Art. 9 / art. 16: every use of the method names both options and refuses any other.
    if type(method) is int and (method == 1 or method == 2):
        return method
    raise SettingsError("Baccarat method must be 1 or 2 (art. 9), got %r" % (method,))


TIE_OPTIONS = SETTINGS_SPEC[2][1]  # art. 11
