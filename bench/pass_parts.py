# The main loop's pass split into its parts, each timed (us of the VM, bench/table_vm.py's clock):
# input pass (buttons and keypad, devices, host and console, the table journal's record and
# snapshot, dispatch, reports with the Sender) and output pass (lights, each display). Shared by the
# profiling aids bench/profile_pass.py and bench/profile_report.py.
from bench import table_vm as tv
from firmware import main as m

now = tv.now_us


def split_pass(t):
    ctx = t.ctx
    q = ctx.queue
    parts = []
    t0 = now()
    from firmware.events import TICK
    q.put(TICK, 10)
    ctx.hw.buttons.poll(q)
    if ctx.hw.keypad is not None:
        ctx.hw.keypad.poll(q)
    t1 = now(); parts.append(("buttons+keypad", t1 - t0))
    for d in ctx.game.devices:
        d.poll(10)
    t2 = now(); parts.append(("devices", t2 - t1))
    if ctx.host_port is not None:
        m.read_host(ctx, 10)
    if ctx.unused_reader is not None:
        m._watch_unused_reader(ctx, 10)
    ctx.console.poll(10)
    t3 = now(); parts.append(("host+console", t3 - t2))
    table = ctx.table
    journal = ctx.journal
    disp = 0.0
    rep = 0.0
    jour = 0.0
    while q.get():                           # main._dispatch, its parts timed apart
        kind = q.kind
        a = now()
        held = not journal.before(table, kind, q.a, q.b)   # the table journal: the event on flash first
        b = now()
        jour += b - a
        if held:
            continue
        table.dispatch(kind, q.a, q.b)
        a = now()
        disp += a - b
        if kind == TICK:
            journal.after_tick(table)
        b = now()
        jour += b - a
        if len(table.outbox):
            m._report(ctx)
        a = now()
        rep += a - b
        journal.after(ctx)   # a snapshot at a boundary
        jour += now() - a
    parts.append(("journal", jour))
    parts.append(("dispatch", disp))
    parts.append(("reports+sender", rep))
    if ctx.hw.watchdog is not None:
        ctx.hw.watchdog.feed()
    a = now()
    m._report(ctx)
    ctx.sender.poll(10)
    b = now(); parts.append(("out: report+sender", b - a))
    ctx.hw.lights.show()
    c = now(); parts.append(("lights", c - b))
    answered = table.display_dirty
    if answered:
        table.display_dirty = False
        ctx.hw.displays["dealer"].show(m._dealer_lines(ctx))
        d = now(); parts.append(("dealer lcd", d - c))
        ctx.hw.displays["result"].show(ctx.game.screens.result_lines(table, ctx.config, ctx.button_names))
        c = now(); parts.append(("result lcd", c - d))
    sb = ctx.game.scoreboard
    if sb is not None and table.scoreboard_dirty and answered and not ctx.game.scoreboard_waited:
        ctx.game.scoreboard_waited = True        # firmware/main.py: the scoreboard waits a display pass
    elif sb is not None and table.scoreboard_dirty:
        ctx.game.scoreboard_waited = False
        table.scoreboard_dirty = False
        sb[0].draw(table.roads)
        d = now(); parts.append(("scoreboard draw", d - c))
        sb[0].show()
        parts.append(("oled show", now() - d))
    return parts
