# Profiling aid, not a bench: the host report path ("reports+sender" of bench/profile_pass.py: the
# reports of each event, the Sender, the link store's flash writes, recall) of the Baccarat last
# card, Craps CLOSE and throw, and Omaha last check passes, over more rounds than --profile runs:
# the median and the least of each (us of VM CPU, the clock of bench/table_vm.py), steadier on a
# loaded machine than 4 passes. The other parts of each pass are timed as bench/profile_pass.py does.
#   .venv/bin/python -c "from bench import whole_table as w; print(w.run_vm('profile_report.py', steps=True))"
import gc

from bench import table_vm as tv
from firmware import main as m

now = tv.now_us

ROUNDS = 6                  # per VM run call; 3 run calls


# bench/profile_pass.py's (importing it would run its profile)
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
        journal.after(ctx, m._report)        # a snapshot at a boundary
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
    if table.display_dirty:
        table.display_dirty = False
        ctx.hw.displays["dealer"].show(m._dealer_lines(ctx))
        d = now(); parts.append(("dealer lcd", d - c))
        ctx.hw.displays["result"].show(ctx.game.screens.result_lines(table, ctx.config, ctx.button_names))
        c = now(); parts.append(("result lcd", c - d))
    sb = ctx.game.scoreboard
    if sb is not None and table.scoreboard_dirty:
        table.scoreboard_dirty = False
        sb[0].draw(table.roads)
        d = now(); parts.append(("scoreboard draw", d - c))
        sb[1].show()
        parts.append(("oled show", now() - d))
    return parts

SEEN = {}
LAST = []


def _split_timed(t):
    parts = split_pass(t)
    LAST.append(parts)
    return sum(p[1] for p in parts)


def _keep(name, parts):
    for part, us in parts:
        if part == "reports+sender":
            SEEN.setdefault(name, []).append(us)


def setup():
    tv.timed_pass = _split_timed
    for game in ("baccarat", "craps", "omaha"):
        tv.TABLES[game] = tv.vmtable.Table(game)
    tv.baccarat_shoe(tv.TABLES["baccarat"])
    tv.omaha_hand(tv.TABLES["omaha"], 1, timed=False, keys=tv.TABLES["omaha"].keys_at_once)
    tv.STATE["k"] = 0


def rounds(n):
    for _ in range(n):
        k = tv.STATE["k"]
        tv.STATE["k"] = k + 1
        LAST[:] = []
        tv.baccarat_next(tv.TABLES["baccarat"], k)
        _keep("baccarat last card", LAST[-1])
        LAST[:] = []
        tv.craps_round(tv.TABLES["craps"])
        _keep("craps close", LAST[-2])
        _keep("craps throw", LAST[-1])
        LAST[:] = []
        tv.omaha_hand(tv.TABLES["omaha"], 2 + k, keys=tv.TABLES["omaha"].keys_at_once)
        _keep("omaha last check", LAST[-1])
        gc.collect()


def report():
    for name in ("baccarat last card", "craps close", "craps throw", "omaha last check"):
        xs = sorted(SEEN.get(name, ()))
        if xs:
            print("%s reports+sender: median %.0f least %.0f (%d passes)" % (name, xs[len(xs) // 2], xs[0], len(xs)))


setup()
# --- next run call ---
rounds(ROUNDS)
# --- next run call ---
rounds(ROUNDS)
# --- next run call ---
rounds(ROUNDS)
report()
