"""The soak's display cables: pulled and put back mid-play, and what the host must hear of them.

`with_display_pulls(rng, lines, roles)` puts tools.replay's {"unplug": ROLE} and {"plug": ROLE} lines between a
script's lines: a cable pulled, then time for the firmware's probe to find it (it asks each display every
second, firmware.main.probe_displays) and the dealer's CONFIRM of the alarm it raises; put back 1 to SPAN lines
later, then time for the firmware's next try (every 5 s, firmware/display_loss.py); every cable back before the
end. The alarm is closed before the next line of play, so a pulled cable changes no game report: soak_rig holds
a clean script's run with pulls to the plain run's game reports (--display-pulls --clean).

`check_displays(seen, lines)` holds the run's reports to docs/protocol.md's display reports:
  - each cable pulled while the table runs is named once (`display_missing` with `text` "ROLE display at I2C
    address N stopped answering: ..."), no display twice without coming back between, and none not pulled;
  - a display comes back (`display_back`) only after it stopped answering, or was named missing at boot, in the
    same boot, once for each time;
  - a display named missing at boot is one whose cable was pulled;
  - by the end (every cable in, more than the retry time waited) every display out in the last boot is back;
  - no display_restarted: the probe finds every pull before its plug here (a reseat between two probes is
    tests/host/test_replay.py's and the golden script's).
A link_lost notice (the host away long enough: the board's store refused reports) makes the counts bounds, and
until the next boot the order unsure (the reports it hides may be a display's going or coming back).
"""
import json

from hostsim.headless import board_path
from tests.host.soak_recall import LOST

SPAN = 12                 # lines a cable stays out, at most
_PROBE_WAIT = {"wait_ms": 1500}      # the probe's second, and an output pass or two
_RETRY_WAIT = {"wait_ms": 6000}      # the firmware's next try of a display it left out (every 5 s)


class DisplayMismatch(AssertionError):
    pass


def sim_display_roles():
    """The sim board's displays (the soak's board), by role, sorted."""
    with open(board_path("sim")) as f:
        return sorted(role for role in json.load(f)["displays"] if role != "i2c")


def with_display_pulls(rng, lines, roles, rate=0.03):
    """`lines` with display cables pulled now and then (a role of `roles` not out already), each followed by
    the probe's time and the dealer's CONFIRM, and put back SPAN lines later at most, each followed by the
    retry's time; every cable back at the end."""
    out, left = [], {}
    for line in lines:
        for role in sorted(left):
            left[role] -= 1
            if not left[role]:
                del left[role]
                out += [{"plug": role}, _RETRY_WAIT]
        plugged = [role for role in roles if role not in left]
        if plugged and rng.random() < rate:
            role = rng.choice(plugged)
            left[role] = rng.randrange(1, SPAN + 1)
            out += [{"unplug": role}, _PROBE_WAIT, {"button": "confirm"}]
        out.append(line)
    for role in sorted(left):
        out += [{"plug": role}, _RETRY_WAIT]
    return out


def check_displays(seen, lines):
    """-> how many displays stopped answering and came back; DisplayMismatch at the first report that breaks
    the rules above. `lines`: the script the run replayed (its unplug lines counted)."""
    pulled = {}
    for line in lines:
        if "unplug" in line:
            pulled[line["unplug"]] = pulled.get(line["unplug"], 0) + 1
    bounds = any(r.get("event") == LOST for r in seen)
    stopped, back, out, unsure = {}, 0, set(), False
    for r in seen:
        event = r.get("event")
        if event == "boot":
            out, unsure = set(), False       # a boot forgets what was out: it takes what answers
        elif event == LOST:
            out, unsure = set(), True        # hidden: which went, which came back
        elif event == "fault" and r.get("fault") == "display_missing" and "text" in r:
            role = r["text"].split(" display at ")[0]
            if role not in pulled:
                raise DisplayMismatch("%s named missing, its cable never pulled: %r" % (role, r))
            if role in out and not unsure:
                raise DisplayMismatch("%s named twice without coming back: %r" % (role, r))
            out.add(role)
            if " stopped answering: " in r["text"]:
                stopped[role] = stopped.get(role, 0) + 1
        elif event == "display_back":
            if r["display"] not in out and not unsure:
                raise DisplayMismatch("%s back, but it had not stopped answering (or been missing) in this boot: %r"
                                      % (r["display"], r))
            out.discard(r["display"])
            back += 1
        elif event == "display_restarted":
            raise DisplayMismatch("a pull the probe did not find before its plug: %r" % (r,))
    for role, n in sorted(pulled.items()):
        if stopped.get(role, 0) > n or not bounds and stopped.get(role, 0) + _at_boot(seen, role) < n:
            raise DisplayMismatch("%s: cable pulled %d times, named stopped answering %d times"
                                  % (role, n, stopped.get(role, 0)))
    if out:
        raise DisplayMismatch("still out at the end, every cable back: %s" % ", ".join(sorted(out)))
    return back


def _at_boot(seen, role):
    """How many boots found `role` missing (a power cut while its cable was out: the boot names it, not the
    probe: it takes one unplug's naming)."""
    return sum(1 for r in seen if r.get("event") == "fault" and r.get("fault") == "display_missing"
               and r.get("text", "").startswith(role + " display at ") and " stopped answering: " not in r["text"])
