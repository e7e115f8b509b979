"""A table journal filled by a long alarm (docs/journal.md, "Full"): the whole table through tools.replay.

A Craps dice alarm left open while the bet reader sends reading after reading: the table takes them until
its journal is three quarters full, then refuses them whole (`journal_nearly_full`, each with its id), and
when the log fills it says so (`journal_bad`, `full`). A power cut then recovers the table as the log left
it and says that too (`recovered`: `resumed` false, `full` true): no reading it accepted is lost (the
throw after the alarm settles the last one accepted, as without the cut), none it refused is played.
"""
from tests.host import soak_rig as R

# One-roll bets on every seat (14 x 8: a record of ~700 bytes), their stakes moving with n.
def _reading(n):
    return {"bets": {str(seat): {zone: 5 + 5 * ((n + seat + i) % 4) for i, zone in enumerate(R.ONE_ROLL)}
                     for seat in range(1, 15)}}


_BAD_FRAME = {"raw": {"port": "dice", "hex": b"D1 0A THROW 3 4*0000\n".hex()}}   # frame_crc: the dice alarm
_READINGS = 200


def _script(cut):
    lines = [_reading(0), _BAD_FRAME] + [_reading(n) for n in range(1, _READINGS)]
    if cut:
        lines.append({"power_cut": True})
    return lines + [_reading(_READINGS), {"button": "confirm"}, {"dice": [5, 6]}, _reading(_READINGS + 1)]


def _bets(reports):
    return [(r.get("reading"), r["accepted"], r.get("reason")) for r in reports if r["event"] == "bets"]


def _after(reports, event):
    return reports[[r["event"] for r in reports].index(event) + 1:]


def test_a_long_alarm_fills_the_journal_and_a_power_cut_then_loses_no_reading_the_table_accepted():
    whole = R.run(_script(False), "craps", closing=False)
    cut = R.run(_script(True), "craps", closing=False)
    for seen in (whole, cut):
        R.check_craps(seen)                       # every one-roll bet accepted nets the judge's, across the reset
    uncut = R.reports_only(whole)
    readings = _bets(uncut)
    accepted = [n for n, ok, _ in readings if ok]
    refused = [n for n, ok, why in readings if not ok and why == "journal_nearly_full"]
    first_refused = refused[0]
    # Ids 1..201 before the throw: taken up to three quarters full, then every one refused; after it, taken.
    assert 10 < first_refused < 40 and accepted == list(range(1, first_refused)) + [_READINGS + 2]
    assert refused == list(range(first_refused, _READINGS + 2))
    full = [i for i, r in enumerate(uncut) if r["event"] == "fault" and r["fault"] == "journal_bad"]
    assert len(full) == 1 and uncut[full[0]]["full"] is True
    assert uncut[full[0] - 1]["event"] == "bets" and uncut[full[0] - 1]["reading"] > first_refused
    # The cut: the boot after it recovers the log as it filled, and says so.
    after = R.reports_only(cut)
    boots = [i for i, r in enumerate(after) if r["event"] == "boot"]
    assert len(boots) == 2
    recovered = [r for r in after if r["event"] == "recovered"]
    assert [(r["resumed"], r["full"], r["state"], r["fault"]) for r in recovered] == [(False, True, "fault", "frame_crc")]
    assert "filled at event" in recovered[0]["error"]
    second = after[boots[1]:]
    assert [(r["fault"], r.get("full")) for r in second if r["event"] == "fault"] == [("journal_bad", True)]
    assert _bets(second)[0] == (_READINGS + 1, False, "journal_nearly_full")      # still full: refused
    # Closed by CONFIRM, the table snapshots at its boundary and takes readings again; the throw settles
    # the last reading accepted before the log filled, in both runs.
    throws = [[r for r in R.reports_only(seen) if r["event"] == "throw"] for seen in (whole, cut)]
    assert [len(t) for t in throws] == [1, 1] and throws[0][0]["valid"] and throws[0][0]["nets"]
    assert throws[0][0]["nets"] == throws[1][0]["nets"]
    assert _bets(_after(after, "throw")) == [(_READINGS + 2, True, None)]

