# Profiling aid, not a bench: the Baccarat last card's pass, the Craps CLOSE and throw passes,
# each split into its parts (input pass: buttons and keypad, devices, host and console, the table
# journal's record and snapshot (firmware/recovery.py), dispatch, reports with the Sender; output
# pass: lights, each display), in us of the VM (the same clock as bench/table_vm.py).
# `.venv/bin/python bench/whole_table.py --profile` runs it in the VM.
import gc
import sys

from bench import table_vm as tv
from bench.pass_parts import split_pass





def show(name, parts):
    print(name, " ".join("%s=%.0f" % p for p in parts), "total=%.0f" % sum(p[1] for p in parts))


LAST = []


def _split_timed(t):
    parts = split_pass(t)
    LAST.append(parts)
    return sum(p[1] for p in parts)


def setup():
    tv.timed_pass = _split_timed             # the benches' timed pass, split into its parts
    for game in ("baccarat", "craps", "omaha"):
        tv.TABLES[game] = tv.vmtable.Table(game)
    tv.baccarat_shoe(tv.TABLES["baccarat"])
    tv.omaha_hand(tv.TABLES["omaha"], 1, timed=False, keys=tv.TABLES["omaha"].keys_at_once)


def profile(k):
    gc.collect()
    tv.baccarat_next(tv.TABLES["baccarat"], k)
    show("baccarat last card", LAST[-1])
    gc.collect()
    LAST[:] = []
    tv.craps_round(tv.TABLES["craps"])
    show("craps close", LAST[-2])
    show("craps throw", LAST[-1])
    gc.collect()
    tv.omaha_hand(tv.TABLES["omaha"], 2 + k, keys=tv.TABLES["omaha"].keys_at_once)
    show("omaha last check", LAST[-1])


# bench/whole_table.py --profile runs this with tools.mpvm --steps: a VM run call per profile().
setup()
# --- next run call ---
profile(0)
# --- next run call ---
profile(1)
# --- next run call ---
profile(2)
# --- next run call ---
profile(3)
