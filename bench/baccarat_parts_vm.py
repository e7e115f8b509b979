# Profiling aid, not a bench: the Baccarat last card's pass (bench/table_vm.py's) with its parts split
# finer than bench/profile_pass.py does: functions of the drivers, the controller, the report path (the
# reporter, the sender and its store, recall, the table journal) and the displays are wrapped in
# timers for the timed pass only (each wrapper's own cost, a few us, is in the figures: compare a part
# with itself before and after a change, not with the whole-pass figures). Prints the medians.
#
#   .venv/bin/python bench/baccarat_parts_vm.py        (runs itself in the VM, tools.mpvm --steps)
import gc
import sys

if sys.implementation.name != "micropython":
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tools import mpvm
    raise SystemExit(mpvm.run_bench_steps(__file__))

from bench import table_vm as tv
from firmware import main as m
from firmware.events import TICK

now = tv.now_us
ACC = {}
ORDER = []
WRAPPED = []


def wrap(obj, name, label):
    if not hasattr(obj, name):       # (renamed or moved since: left out, not a failure of the aid)
        if label not in ACC:
            ACC[label] = 0
            ORDER.append(label)
            print("not wrapped: %s (%s)" % (label, name))
        return
    f = getattr(obj, name)
    if label not in ACC:
        ACC[label] = 0
        ORDER.append(label)

    def timed(*args):
        t0 = now()
        r = f(*args)
        ACC[label] += now() - t0
        return r
    own = type(obj) is type(gc) or not hasattr(type(obj), name)    # a module's or an instance's own
    setattr(obj, name, timed)
    WRAPPED.append((obj, name, f, own))


def unwrap():
    for obj, name, f, own in WRAPPED:
        if own:
            setattr(obj, name, f)        # a module's function, an instance's own attribute (scoreboard._scroll)
        else:
            delattr(obj, name)           # an instance: its class's method shows again
    WRAPPED[:] = []


def instrument(t):
    ctx = t.ctx
    table = ctx.table
    dev = ctx.game.devices[0]
    wrap(ctx.hw.buttons, "poll", "in: buttons")
    if ctx.hw.keypad is not None:
        wrap(ctx.hw.keypad, "poll", "in: keypad")
    wrap(dev.source, "poll", "dev: serial_line.poll")
    wrap(dev, "handle", "dev: handle (all)")
    wrap(dev.frame, "decode", "dev:  frame.decode")
    wrap(dev.sequence, "track", "dev:  sequence.track")
    wrap(dev, "_message", "dev:  _message")
    wrap(table.shoe, "deal", "disp: shoe.deal")
    wrap(table, "_finish_round", "disp: _finish_round")
    wrap(table.shoe, "end_round", "disp:  shoe.end_round")
    wrap(table.roads, "add", "disp:  roads.add")
    wrap(table, "_settle", "disp:  _settle")
    wrap(table, "_render_lights", "disp: _render_lights")
    wrap(table, "_emit", "disp: _emit (all)")
    wrap(table, "_deal", "disp: _deal")
    wrap(table.hand, "result", "disp:  round.result")
    rep = ctx.reporter
    wrap(rep, "emit", "rep: emit (all)")
    wrap(table, "game_report", "rep:  table.game_report")
    wrap(rep.recent, "note", "rep:  recent.note")
    wrap(ctx.sender, "send", "rep:  sender.send")
    wrap(ctx.sender.store, "append", "rep:   store.append")
    wrap(ctx.sender._enc, "encode", "rep:   enc.encode")
    # a long report's later pieces (the result's, in PART frames): encoded and placed in the ring at once
    wrap(ctx.sender.store, "append_run", "rep:   store.append_run")
    wrap(ctx.sender._enc, "encode_next", "rep:    enc.encode_next")
    wrap(ctx.sender.store, "count", "rep:   store.count")
    if rep.recall is not None:
        wrap(rep.recall, "noted", "rep: recall.noted")
        wrap(rep.recall, "commit", "rep: recall.commit")
    wrap(ctx.sender, "poll", "rep: sender.poll")
    wrap(ctx.sender.store, "flush", "rep:  store.flush")
    wrap(ctx.journal, "before", "jnl: journal.before")
    wrap(ctx.journal, "after", "jnl: journal.after")
    wrap(ctx.hw.lights, "show", "out: lights.show")
    wrap(ctx.game.screens, "dealer_lines", "out: dealer_lines (text)")
    for name in ("_winner_text", "_hand_line", "stood"):
        wrap(ctx.game.screens, name, "out:  screens." + name)
    from firmware.drivers import lcd
    wrap(lcd, "_encode", "out:  lcd._encode (both)")
    wrap(ctx.hw.displays["dealer"], "show", "out: dealer lcd.show")
    wrap(ctx.game.screens, "result_lines", "out: result_lines (text)")
    wrap(ctx.hw.displays["result"], "show", "out: result lcd.show")
    sb = ctx.game.scoreboard[0]
    wrap(sb, "draw", "sb: draw (all)")
    for name in ("_header", "_new_beads", "_new_entries", "_new_marks", "_scroll", "_bead_plate", "_big_road",
                 "_derived", "draw_all"):
        if hasattr(sb, name):
            wrap(sb, name, "sb:  " + name)
    wrap(ctx.game.scoreboard[0], "show", "sb: show (its windows)")


def _add(label, us):
    if label not in ACC:
        ACC[label] = 0
        ORDER.append(label)
    ACC[label] += us


def split_pass(t):
    """firmware.main's two passes in profile_pass.py's parts (their names in capitals), dispatch
    timed per event kind."""
    ctx = t.ctx
    q = ctx.queue
    table = ctx.table
    t0 = now()
    q.put(TICK, 10)
    ctx.hw.buttons.poll(q)
    if ctx.hw.keypad is not None:
        ctx.hw.keypad.poll(q)
    t1 = now()
    _add("BUTTONS+KEYPAD", t1 - t0)
    for d in ctx.game.devices:
        d.poll(10)
    _add("DEVICES", now() - t1)
    if ctx.host_port is not None:
        m.read_host(ctx, 10)
    ctx.console.poll(10)
    while q.get():
        kind = q.kind
        if not ctx.journal.before(table, kind, q.a, q.b):
            continue
        a = now()
        table.dispatch(kind, q.a, q.b)
        b = now()
        _add("DISPATCH", b - a)
        _add("disp: dispatch TICK" if kind == TICK else "disp: dispatch kind %d" % kind, b - a)
        if kind == TICK:
            ctx.journal.after_tick(table)
        if len(table.outbox):
            a = now()
            m._report(ctx)
            _add("REPORT", now() - a)
        ctx.journal.after(ctx)
    m._report(ctx)
    t2 = now()
    ctx.hw.lights.show()
    t3 = now()
    _add("LIGHTS", t3 - t2)
    answered = table.display_dirty
    if answered:
        table.display_dirty = False
        ctx.hw.displays["dealer"].show(m._dealer_lines(ctx))
        t4 = now()
        _add("DEALER LCD", t4 - t3)
        ctx.hw.displays["result"].show(ctx.game.screens.result_lines(table, ctx.config, ctx.button_names))
        t3 = now()
        _add("RESULT LCD", t3 - t4)
    sb = ctx.game.scoreboard
    if sb is not None and table.scoreboard_dirty and answered and not ctx.game.scoreboard_waited:
        ctx.game.scoreboard_waited = True        # firmware/main.py: the scoreboard waits a display pass
    elif sb is not None and table.scoreboard_dirty:
        ctx.game.scoreboard_waited = False
        table.scoreboard_dirty = False
        sb[0].draw(table.roads)
        t4 = now()
        _add("SCOREBOARD DRAW", t4 - t3)
        sb[0].show()
        _add("OLED SHOW", now() - t4)
    t5 = now()
    ctx.sender.poll(10)                  # firmware.main.send_reports: after the answer, not in its sum
    _add("LINK TURN (after; not summed)", now() - t5)


ROWS = []
PLAIN = []


def _timed(t):
    for k in list(ACC):
        ACC[k] = 0
    wrapped = len(ROWS) <= len(PLAIN)
    if wrapped:
        instrument(t)
    try:
        split_pass(t)
    finally:
        unwrap()
    (ROWS if wrapped else PLAIN).append(dict(ACC))
    return 0


def setup():
    tv.timed_pass = _timed
    tv.TABLES["baccarat"] = tv.vmtable.Table("baccarat")
    tv.baccarat_shoe(tv.TABLES["baccarat"])
    for k in range(3):
        tv.baccarat_next(tv.TABLES["baccarat"], k, timed=False)


def rounds(k0, n):
    for k in range(k0, k0 + n):
        gc.collect()
        tv.baccarat_next(tv.TABLES["baccarat"], k)


def report():
    print("%d passes with the timers (lower case: inside a part), %d without (CAPITALS: the parts);"
          " us of VM CPU, median (min-max)" % (len(ROWS), len(PLAIN)))
    total = [0] * len(PLAIN)
    for label in ORDER:
        rows = PLAIN if label[0].isupper() else ROWS
        xs = [r.get(label, 0) for r in rows]
        if label[0].isupper() and not label.startswith("LINK TURN"):
            total = [a + b for a, b in zip(total, xs)]
        xs = sorted(xs)
        print("  %-30s %6.0f  (%.0f-%.0f)" % (label, tv.median(xs), xs[0], xs[-1]))
    total.sort()
    print("  %-30s %6.0f  (%.0f-%.0f)" % ("SUM OF THE CAPITALS", tv.median(total), total[0], total[-1]))


setup()
# --- next run call ---
rounds(3, 8)
# --- next run call ---
rounds(11, 8)
# --- next run call ---
rounds(19, 8)
# --- next run call ---
rounds(27, 8)
# --- next run call ---
report()
