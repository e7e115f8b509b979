# Omaha table settings: defaults and validation of every regulated option (arts. 2, 5, 10(5), 11-12, 16).
from firmware.errors import SettingsError
from firmware.games.omaha.settings import OmahaSettings
from firmware.games.omaha.settings import SETTING_NAMES, load_settings
from tests.firmware.expect import raises_match
from tests.firmware.omaha_fixtures import BASE


def make(**changes):
    values = dict(BASE)
    for k in changes:
        values[k] = changes[k]
    return OmahaSettings(**values)


def test_every_setting_is_required_no_silent_default():
    s = load_settings(dict(BASE, rake_percent=5))
    assert s.as_pairs() == (("structure", "pot_limit"), ("small_blind", 5), ("big_blind", 10),
                            ("rake_percent", 5), ("rake_cap_big_blinds", 5), ("odd_chip", "croupier"),
                            ("heads_up", "no_raise_cap"), ("seats", 10))
    assert s.rake_cap == 50
    for name in SETTING_NAMES:
        values = dict(BASE)
        del values[name]
        raises_match(SettingsError, "%r missing" % name, load_settings, values)
    raises_match(SettingsError, "dict", load_settings, [("structure", "pot_limit")])


def test_allowed_values_accepted():
    for structure in ("pot_limit", "no_limit"):
        for odd in ("croupier", "button"):
            for pct in (0, 3, 4, 5):
                s = make(structure=structure, odd_chip=odd, rake_percent=pct,
                                  rake_cap_big_blinds=1, small_blind=10, big_blind=10, seats=20)
                assert s.structure == structure and s.rake_percent == pct


def test_art11_structure_must_be_known():
    raises_match(SettingsError, "structure must be one of pot_limit, no_limit", make, structure="limit")


def test_art16_rake_percent_and_cap():
    raises_match(SettingsError, "rake_percent", make, rake_percent=6)
    raises_match(SettingsError, "rake_percent", make, rake_percent=2)
    raises_match(SettingsError, "rake_percent", make, rake_percent=True)
    raises_match(SettingsError, "rake_percent", make, rake_percent="3.5")
    raises_match(SettingsError, "rake_cap_big_blinds must be 1..5", make, rake_cap_big_blinds=6)
    raises_match(SettingsError, "rake_cap_big_blinds must be 1..5", make, rake_cap_big_blinds=0)


def test_art16_rake_percent_in_tenths_of_a_percent_from_3_to_5():
    # Art. 16 takes "3% to 5%" of each pot: any rate in that range, read to a tenth of a percent (an approved
    # 3.5%); the whole numbers of the table files before stay what they were (5 is 5%). Regression: only
    # 0, 3, 4, 5 were taken, so 3.5 could not be set.
    for value, tenths, shown in ((3, 30, 3), (3.0, 30, 3), (3.5, 35, 3.5), (4.9, 49, 4.9), (5.0, 50, 5),
                                 (5, 50, 5), (0, 0, 0), (0.0, 0, 0)):
        s = make(rake_percent=value)
        assert (s.rake_tenths, s.rake_percent) == (tenths, shown), value
        assert s.copy().rake_tenths == tenths
    for value in (2.9, 5.1, 3.25, 3.05, 0.5, -3.5, 6, float("nan"), float("inf"), -0.1, 1e300, 2.99999, 3.0001):
        raises_match(SettingsError, "rake_percent must be 0 (no rake) or 3 to 5 in tenths of a percent",
                     make, rake_percent=value)


def test_art5_blinds():
    raises_match(SettingsError, "must not exceed big_blind", make, small_blind=20, big_blind=10)
    raises_match(SettingsError, "small_blind must be at least 1", make, small_blind=0)
    raises_match(SettingsError, "whole number", make, big_blind=10.5)


def test_a_big_blind_no_stack_can_cover_is_refused():
    # Stacks are at most 9,999,999 (keyed with 7 digits, or from the host): a blind of 10 ** 400 (or a
    # typo's extra zeros) opened a table where every hand was all in on the blinds.
    assert make(small_blind=5000000, big_blind=9999999).big_blind == 9999999
    for big in (10000000, 10 ** 400):
        raises_match(SettingsError, "setting big_blind must be 1..9999999", make, big_blind=big)


def test_art10_5_odd_chip_and_art12_4_heads_up_options():
    raises_match(SettingsError, "odd_chip must be one of croupier, button", make, odd_chip="dealer")
    raises_match(SettingsError, "heads_up must be one of no_raise_cap, no_limit", make, heads_up="x")


def test_art2_seats_and_unknown_settings():
    raises_match(SettingsError, "seats must be 2..20", make, seats=1)
    raises_match(SettingsError, "seats must be 2..20", make, seats=21)
    raises_match(SettingsError, "unknown Omaha setting 'ante'", make, ante=1)


def test_art16_a_rake_in_tenths_has_the_same_settings_digest_and_value_on_both_runtimes():
    # The host tells a table's settings by the digest of its table file (firmware.host_port): a decimal
    # rake_percent is written the same on CPython and MicroPython, and so is the value a hand works with.
    from firmware.host_port import settings_digest
    expected = {3.5: "6a399de0", 3.1: "6d30353c", 4.9: "d103b894", 3.3: "6eb4e152", 5: "e6c6550c"}
    for value in expected:
        assert settings_digest({"settings": {"rake_percent": value}}) == expected[value], value
        s = make(rake_percent=value)
        assert settings_digest({"settings": {"rake_percent": s.rake_percent}}) == expected[value], value
    assert [make(rake_percent=t / 10).rake_tenths for t in range(30, 51)] == list(range(30, 51))
