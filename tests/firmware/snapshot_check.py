# The snapshot determinism check (both runtimes): a scripted session runs once as the reference; then at
# every boundary it reached, its snapshot goes into a freshly built table, and the rest of the session is
# fed to that one: its reports, lights and displays must be the reference's, step for step.
from firmware.events import BETS, HOST, HOST_HAND, TICK
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
        seen = len(rig.reports())
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
        later = dict((j, d) for j, d, _s, _m, _r in snaps if j > k)
        for j in range(k, len(steps)):
            got = _run(fork, steps[j:j + 1], 0, screens, config)[0]
            assert got == reference[j], "restored at step %d, step %d differs:\n%r\n%r" % (k, j, got, reference[j])
            if j + 1 in later:                   # the same state at every later boundary
                assert fork.table.snapshot() == later[j + 1], "restored at step %d, step %d" % (k, j)
    assert len(snaps) >= first_seen
    return len(snaps), largest


def _behind(table, kind, a):
    """The bytes behind an event that the journal keeps with it: the bet reading a BETS names, the parsed
    host request a HOST_HAND names (the table reads them when the event is dispatched)."""
    if kind == BETS and table.reading is not None:
        return (table.reading.reading_id, list(table.reading.amounts), table.link_room)
    if kind == HOST and a == HOST_HAND:
        return (table.host_button, table.host_has_stacks, list(table.host_stacks))
    return None


def _put_behind(table, kind, a, behind):
    if behind is None:
        return
    if kind == BETS:
        table.reading.reading_id = behind[0]
        for i in range(len(behind[1])):
            table.reading.amounts[i] = behind[1][i]
        table.link_room = behind[2]              # the host link's room it was bounded by (event_bytes keeps it)
    else:
        table.host_button, table.host_has_stacks = behind[0], behind[1]
        for i in range(len(behind[2])):
            table.host_stacks[i] = behind[2][i]


def journal_check(make_rig, steps):
    """The journal's recovery: from each boundary's snapshot, the events the table was fed after it
    (with what is behind them, and the ticks between two events coalesced into one, as a journal that
    keeps each event's elapsed ms replays them) give the same reports, lights and final state.
    Returns the boundaries checked."""
    ref = make_rig()
    log = []
    dispatch = ref.table.dispatch

    def logged(kind, a, b):
        log.append((kind, a, b, _behind(ref.table, kind, a)))
        dispatch(kind, a, b)

    ref.table.dispatch = logged
    marks = []                                   # (events so far, reports so far, snapshot) at each boundary
    for k in range(len(steps) + 1):
        if ref.table.at_boundary():
            marks.append((len(log), len(ref.reports()), ref.table.snapshot()))
        if k < len(steps):
            steps[k](ref)
    reports = [strip(r) for r in ref.reports()]
    final = ref.table.snapshot() if ref.table.at_boundary() else None
    for events, seen, data in marks:
        fork = make_rig()
        fork.table.restore(data)
        booted = len(fork.reports())
        ms = 0
        for kind, a, b, behind in log[events:]:
            if kind == TICK:
                ms += a
                continue
            if ms:
                fork.event(TICK, ms)
                ms = 0
            _put_behind(fork.table, kind, a, behind)
            fork.event(kind, a, b)
        if ms:
            fork.event(TICK, ms)
        got = [strip(r) for r in fork.reports()[booted:]]
        assert got == reports[seen:], "replayed from event %d:\n%r\n%r" % (events, got, reports[seen:])
        assert fork.lights.colours == ref.lights.colours, "replayed from event %d: lights differ" % events
        if final is not None:
            assert fork.table.snapshot() == final, "replayed from event %d: another state" % events
    return len(marks)
