# A house limit the table file leaves to its default (Craps' maximum, max_open_bets) is changed at the
# console from the value the table runs with: the staging line, the audit entry and the host's
# settings_pending / settings_changed name that value as the old one, never "None" / null, and the
# default typed again stages nothing (docs/console.md, "Changing the settings").
import json

from firmware.console.audit import AuditLog
from tests.firmware.console_rig import PIN, login, provision, reports, typed
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _run, _table_file
from tests.firmware.test_settings_change import _reboot


def _booted_without_limits(state):
    provision(state, PIN)
    data = _table_file("craps")
    for key in ("maximum", "max_open_bets"):
        data["settings"].pop(key, None)
    with open(state + "/t_table.json", "w") as f:
        f.write(json.dumps(data))
    return _reboot(state)


def test_a_defaulted_house_limit_changes_from_the_value_the_table_runs_with():
    with ScratchDir() as state:
        ctx, machine = _booted_without_limits(state)
        assert ctx.config["rules"].maximum == 0 and "maximum" not in ctx.config["settings"]
        login(ctx, machine)
        assert typed(ctx, machine, "set maximum 0") == ["maximum is 0 already: nothing staged for it"]
        assert typed(ctx, machine, "set max_open_bets 256") == [
            "max_open_bets is 256 already: nothing staged for it"]
        assert typed(ctx, machine, "set maximum 100") == [
            "staged maximum 0 -> 100 (commit REF to apply at the next new shooter)"]
        assert typed(ctx, machine, "commit MAX-100")[0].startswith("committed (ref MAX-100): maximum 100")
        _run(ctx, 3)
        assert ctx.config["rules"].maximum == 100
        got = [r for r in reports(machine) if r["event"].startswith("settings_")]
        assert [r["changes"] for r in got] == [{"maximum": [0, 100]}, {"maximum": [0, 100]}]
        entries = [e.split(" ", 1)[1] for e in AuditLog(state).last()]
        assert "settings maximum 0 -> 100 ref MAX-100" in entries, entries

