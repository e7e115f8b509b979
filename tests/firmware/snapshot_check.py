# The snapshot determinism check (both runtimes): a scripted session runs once as the reference; then at
# every boundary it reached, its snapshot goes into a freshly built table, and the rest of the session is
# fed to that one: its reports, lights and displays must be the reference's, step for step.
from tests.firmware.table_rig import strip


def _view(rig, screens, config):
    """What a step leaves to see: lights and both displays (uptime aside: the board's, not the game's)."""
    table = rig.table
    return (list(rig.lights.colours), screens.dealer_lines(table, config, []),
            screens.result_lines(table, config, []))


def _run(rig, steps, first, screens, config):
    """Feed steps[first:] -> per step (its reports, what it leaves to see)."""
    out = []
    for step in steps[first:]:
        seen = len(rig.uart.lines())
        step(rig)
        reports = [strip(r) for r in rig.reports()[seen:]]
        out.append((reports, _view(rig, screens, config)))
    return out


def check(make_rig, steps, screens, config, first_seen=1):
    """Run steps (functions of a rig) on make_rig(); at each boundary before a step, fork there through
    snapshot/restore and compare the rest. Returns (boundaries checked, snapshots taken, largest bytes)."""
    ref = make_rig()
    snaps = []                                   # (step index, snapshot, uptime) at each boundary
    reference = []
    for k in range(len(steps) + 1):
        if ref.table.at_boundary():
            snaps.append((k, ref.table.snapshot(), ref.table.uptime_s, ref.table.uptime_part_ms, ref.reading_id))
        if k < len(steps):
            reference += _run(ref, steps[k:k + 1], 0, screens, config)
    largest = 0
    for k, data, uptime_s, uptime_ms, reading_id in snaps:
        largest = max(largest, len(data))
        fork = make_rig()
        fork.table.restore(data)
        assert fork.table.snapshot() == data, "step %d: restored table snapshots differently" % k
        assert fork.table.at_boundary()
        fork.table.uptime_s = uptime_s
        fork.table.uptime_part_ms = uptime_ms
        fork.reading_id = reading_id             # the bet reader numbers its readings, not the table
        fork.reporter.drain(fork.table)          # the fresh table's boot reports: the host has them already
        got = _run(fork, steps, k, screens, config)
        for i in range(len(got)):
            assert got[i] == reference[k + i], "restored at step %d, step %d differs:\n%r\n%r" % (
                k, k + i, got[i], reference[k + i])
    assert len(snaps) >= first_seen
    return len(snaps), largest
