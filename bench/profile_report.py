# Profiling aid, not a bench: the host report path ("reports+sender" of bench/profile_pass.py: the
# reports of each event, the Sender, the link store's flash writes, recall) of the Baccarat last
# card, Craps CLOSE and throw, and Omaha last check passes, over more rounds than --profile runs:
# the median and the least of each (us of VM CPU, the clock of bench/table_vm.py), steadier on a
# loaded machine than 4 passes. The other parts of each pass are timed as bench/profile_pass.py does.
#   .venv/bin/python -c "from bench import whole_table as w; print(w.run_vm('profile_report.py', steps=True))"
import gc

from bench import table_vm as tv
from bench.pass_parts import split_pass


ROUNDS = 6                  # per VM run call; 3 run calls



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
