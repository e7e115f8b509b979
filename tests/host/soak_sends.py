"""The board's side of the soak's lost-report counts: the firmware's Sender watched while a run plays.

check_common (soak_rig.py) sees the host's side only: each boot's reports numbered without a gap but for what
the link_lost notices count, a boot's first counts allowed to hold the boot before's refusals. A count too high
(reports counted lost that the host got) or too low (reports gone with no count) could hide there. This counts,
in the process that runs the firmware, every report the Sender refused (its store full: send() returned 0) and
every report a recovery's replay made again (through firmware.recovery_replay.QuietSender) with the text, less
its seq, of one refused before. Each refused report is either made again by a later boot's replay or counted in a
LOST frame, once. A replay may also make again a report the Sender took but a power cut lost from its store,
with the same text as a refused one (an alarm's no roll), so `remade` bounds from above the refused ones made
again: the check is refused - remade <= lost <= refused (Craps seed 681: 29 refused, 8 remade, 21 lost).
"""
import importlib
import json
import sys


class WatchFailed(AssertionError):
    pass


class Sends:
    """with Sends() as sends: ... -> sends.refused, sends.remade, sends.made (every report the Sender saw)."""

    def __init__(self):
        self.refused = self.remade = self.made = 0
        self._waiting = {}      # a refused report's text (no seq) -> how many of that text no replay made again

    def __enter__(self):
        module = importlib.import_module("firmware.link.sender")   # the one the firmware runs with now
        self._class, self._send = module.Sender, module.Sender.send
        report, original, sends = module.REPORT, self._send, self

        def send(sender, payload, type=report, checked=False):
            seq = original(sender, payload, type, checked)
            if type is report:
                caller = sys._getframe(1).f_locals.get("self")
                sends.saw(payload, seq != 0, caller.__class__.__name__ == "QuietSender")
            return seq

        self._class.send = send
        return self

    def __exit__(self, *exc):
        self._class.send = self._send
        return False

    def saw(self, payload, taken, replayed):
        self.made += 1
        report = json.loads(payload if isinstance(payload, str) else bytes(payload))
        report.pop("seq", None)
        key = json.dumps(report, sort_keys=True)
        if replayed and self._waiting.get(key, 0) > 0:
            self._waiting[key] -= 1
            self.remade += 1
        if not taken:
            self._waiting[key] = self._waiting.get(key, 0) + 1
            self.refused += 1

    def check(self, seen):
        """WatchFailed where the host's link_lost counts in `seen` (the run's output) are not the Sender's."""
        if not self.made:
            raise WatchFailed("the Sender was not watched: no report seen (another Sender class ran the table)")
        lost = sum(r["reports"] for r in seen if r.get("event") == "link_lost")
        if not self.refused - self.remade <= lost <= self.refused:
            raise WatchFailed("the host was told of %d lost reports; the Sender refused %d, %d of them (at most) "
                              "made again by a replay" % (lost, self.refused, self.remade))
