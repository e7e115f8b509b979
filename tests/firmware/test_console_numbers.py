# Numbers typed at the console: one spelling, as table.json holds them (docs/console.md, "Numbers";
# firmware/jsonfile.py NUMBER_RULE): decimal digits, 0 or without a leading zero, no "+", never "-0".
# Regression: `audit 08` and `set decks 08` read 8, `set demo_rounds -0` staged 0, while `+8` was refused
# and the table file (JSON) refuses 08: the same number had several spellings, some in one place only.
from tests.firmware.console_rig import boot_with_pin, login, typed
from tests.firmware.scratch import ScratchDir

_RULE = "a number is digits without a leading zero or a + sign (8, not 08 or +8; 0, not -0)"


def test_audit_and_recall_take_a_count_spelled_one_way():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        assert not typed(ctx, machine, "audit 8")[0].startswith("error:")
        assert not typed(ctx, machine, "recall 8")[0].startswith("error:")
        for count in ("08", "+8", "-0", "-3", "8.0", "0", "0x8"):
            assert typed(ctx, machine, "audit " + count) == ["error: usage: audit [N] (N 1..64)"], count
            assert typed(ctx, machine, "recall " + count) == ["error: usage: recall [N] (N 1..100, default 10)"], count


def test_set_takes_a_number_spelled_one_way_and_names_the_rule_otherwise():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        login(ctx, machine)
        for key, value in (("decks", "08"), ("decks", "+8"), ("demo_rounds", "-0"), ("demo_rounds", "01"),
                           ("decks", "8.")):
            assert typed(ctx, machine, "set %s %s" % (key, value)) == [
                "error: setting %s: '%s' is no whole number: %s" % (key, value, _RULE)], value
        assert ctx.console.change.staged == {}
        assert typed(ctx, machine, "set demo_rounds 0") == ["demo_rounds is 0 already: nothing staged for it"]
        assert typed(ctx, machine, "set decks 6")[0].startswith("staged decks 8 -> 6")
        # A negative number is a number: refused for its range, as table.json's would be.
        assert typed(ctx, machine, "set demo_rounds -1")[0].startswith("error: setting 'demo_rounds' = -1 not allowed")


def test_a_list_and_a_decimal_setting_follow_the_same_rule():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "craps")
        login(ctx, machine)
        assert typed(ctx, machine, "set max_odds 3,04,5") == [
            "error: setting max_odds: '04' is no whole number: " + _RULE]
        assert typed(ctx, machine, "set max_odds 3,4,5") == ["max_odds is 3,4,5 already: nothing staged for it"]
        assert typed(ctx, machine, "set max_odds 2,3,4")[0].startswith("staged max_odds")
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "omaha")
        login(ctx, machine)
        for value in ("03.5", "+3.5", "3.", ".5"):
            assert typed(ctx, machine, "set rake_percent " + value) == [
                "error: setting rake_percent takes a number such as 5 or 3.5, got '%s'" % value], value
        assert typed(ctx, machine, "set rake_percent 3.5")[0].startswith("staged rake_percent")
