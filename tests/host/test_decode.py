"""tools.decode: the reports in a host line capture or a host-link journal file (docs/host-link.md,
"Decoding a capture"; docs/journal.md, "The host link's frames")."""
import io
import json
import os
import subprocess
import sys

from firmware import startup
from firmware.link.journal_store import JournalStore
from tools import decode as decode_tool
from tools import replay as replay_tool

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(REPO, "tests", "host", "replay_scripts")
BOARD = os.path.join(REPO, "boards", "sim.json")
TABLE = os.path.join(REPO, "boards", "tables", "sim-baccarat.json")


def _golden(name="baccarat_round"):
    with open(os.path.join(SCRIPTS, name + ".out.jsonl")) as f:
        return f.read().splitlines()


def _capture(state_dir, name="baccarat_round", line_noise=0.0, seed=0):
    """Replay a golden script through the real link; the bytes the host client was fed (the line as
    the host saw it: after the noise, when there is any) and the reports it printed."""
    data = bytearray()
    out = []

    def started(table):
        feed = table.client.feed

        def recording(chunk):
            data.extend(chunk)
            return feed(chunk)
        table.client.feed = recording

    with open(os.path.join(SCRIPTS, name + ".in.jsonl"), "rb") as lines:
        replay_tool.replay(lines, TABLE, BOARD, str(state_dir), out.append, started=started,
                           line_noise=line_noise, seed=seed)
    return bytes(data), out


def _main(*args, stdin=None):
    out, err = io.StringIO(), io.StringIO()
    status = decode_tool.main(list(args), stdin=stdin, stdout=out, stderr=err)
    return status, out.getvalue().splitlines(), [json.loads(line) for line in err.getvalue().splitlines()]


def test_a_capture_of_a_golden_replay_decodes_to_that_goldens_reports(tmp_path):
    data, out = _capture(tmp_path / "state")
    assert out == _golden()
    path = tmp_path / "capture.bin"
    path.write_bytes(data)
    status, reports, log = _main(str(path))
    assert status == 0
    assert reports == _golden()
    assert not [e for e in log if "damaged" in e]
    types = {e["frame"] for e in log}
    assert {"OPEN", "PART", "REPORT"} <= types            # a long report's PARTs were joined
    first = log[0]
    assert first["frame"] == "OPEN" and first["boot"] == 1 and first["seq"] == 1 and first["at"] == 0


def test_a_noisy_capture_reports_the_damage_and_keeps_every_report_sent_again(tmp_path):
    data, out = _capture(tmp_path / "state", line_noise=0.01, seed=7)
    assert out == _golden()
    status, reports, log = _main("-", stdin=io.BytesIO(data))
    assert status == 1
    damaged = [e for e in log if "damaged" in e]
    assert damaged and all(e["bytes"] is not None for e in damaged)
    assert any(e.get("duplicate") for e in log)           # frames sent again after the damage
    assert reports == _golden()


def test_a_damaged_frame_a_truncated_end_and_noise_are_reported_and_the_good_frames_kept(tmp_path):
    data, _ = _capture(tmp_path / "state")
    lines = data.split(b"\n")[:-1]
    # Find a one-frame report to damage (not a PART run), and another to put noise before.
    report_at = [i for i, line in enumerate(lines) if b" REPORT " in line and b" PART " not in lines[i - 1]]
    hit, noisy = report_at[3], report_at[5]
    damaged_report = lines[hit][lines[hit].index(b"REPORT ") + 7:lines[hit].rindex(b"*")].decode()
    lines[hit] = lines[hit].replace(b'"seq"', b'"seQ"')
    lines[noisy] = b"\x00\xffnoise" + lines[noisy]
    cut = lines[-1][:20]                                   # the capture ends inside the last frame
    last_report = lines[-1][lines[-1].index(b"REPORT ") + 7:lines[-1].rindex(b"*")].decode()
    capture = b"\n".join(lines[:-1]) + b"\n" + cut
    path = tmp_path / "damaged.bin"
    path.write_bytes(capture)
    status, reports, log = _main("--capture", str(path))
    assert status == 1
    whys = [(e["damaged"], e["bytes"]) for e in log if "damaged" in e]
    assert whys[0][0] == "bad_crc" and '"seQ"' in whys[0][1]
    assert whys[1] == ("no_start", "\\x00\\xffnoise")
    assert whys[2] == ("truncated", cut.decode())
    assert len(whys) == 3
    assert reports == [r for r in _golden() if r not in (damaged_report, last_report)]


def test_a_journal_file_from_a_replays_state_dir_decodes_to_the_frames_the_store_held(tmp_path):
    state = tmp_path / "state"
    _, out = _capture(state)
    store = JournalStore(str(state), None, startup.HOST_STORE_FRAMES, startup.HOST_SLOT)
    held = []
    buf = bytearray(startup.HOST_SLOT)
    for i in range(store.count()):
        n = store.read(i, buf)
        held.append(bytes(buf[:n]))
    status, reports, log = _main(str(state / "link.0"))     # found to be a journal file
    assert status == 0
    frames = [e for e in log if "frame" in e]
    data = (state / "link.0").read_bytes()
    kept = [data[e["at"]:data.index(b"\n", e["at"]) + 1] for e in frames if e["held"]]
    assert kept == held
    assert any(not e["held"] for e in frames) and any("drop" in e for e in log)
    assert reports == out == _golden()                      # nothing compacted away in this short script
    assert _main("--journal", "--frames", str(state / "link.0"))[1][0].startswith('{"frame": "OPEN"')


def test_a_refused_count_in_a_journal_file_is_logged_where_it_lies(tmp_path):
    # A boot's own reports refused, the store full (firmware/link/journal_store.py, refused_report): the count
    # is on flash as a batch of no frame, logged with its place, the frames around it decoded as before.
    from firmware.link.sender import Sender

    class Wire:
        def write(self, data):
            return len(data)

    sender = Sender(Wire(), JournalStore(str(tmp_path), None, 4, startup.HOST_SLOT), 1)
    while sender.refused < 2:
        sender.send('{"event": "own"}')
    status, reports, log = _main(str(tmp_path / "link.0"))
    assert status == 0 and reports == ['{"event": "own"}'] * 3
    counts = [e for e in log if "refused_count" in e]
    assert [e["refused_count"] for e in counts] == [1, 2]
    assert all(e["at"] > 0 for e in counts) and log.index(counts[0]) > 3


def test_a_torn_journal_file_says_where_and_keeps_the_frames_before(tmp_path):
    state = tmp_path / "state"
    _capture(state)
    data = (state / "link.0").read_bytes()
    path = tmp_path / "link.0"
    path.write_bytes(data[:-7])
    status, reports, log = _main(str(path))
    assert status == 1
    assert log[-1]["damaged"] == "torn" and "cut short" in log[-1]["detail"]
    assert reports == _golden()[:len(reports)] and len(reports) > 20


def test_unreadable_input_is_status_2_with_one_line_and_garbage_is_damage_never_a_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tools.decode", str(tmp_path / "none.bin")], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and "cannot read" in proc.stderr
    garbage = bytes(range(256)) * 4 + b"#1.2 3 REPORT {}*00000000\n#9.9 0 NOPE*"
    for args in (["--capture", "-"], ["--journal", "-"], ["-"]):
        status, reports, log = _main(*args, stdin=io.BytesIO(garbage))
        assert status == 1 and reports == []
    status, reports, log = _main("-", stdin=io.BytesIO(b""))
    assert (status, reports, log) == (0, [], [])


def test_a_frame_of_an_unknown_type_is_damage(tmp_path):
    from firmware.link import frame
    data = frame.encode(1, 1, "OPEN", "-") + frame.encode(1, 2, "WHAT", "x") + frame.encode(1, 3, "REPORT", "{}")
    status, reports, log = _main("-", stdin=io.BytesIO(data))
    assert status == 1 and reports == ["{}"]
    assert log[1]["frame"] == "WHAT" and log[1]["damaged"] == "unknown_type"


def test_the_hosts_requests_in_a_capture_show_their_payload_and_tag(tmp_path):
    """The host's requests as HostClient sends them (each after a line end: the empty line is no damage)."""
    from firmware.link import frame
    from tools.host_client import HostClient
    data = (frame.encode(1, 1, "OPEN", "-") + HostClient.request(b"open_bets", 17) + HostClient.recall(3)
            + frame.encode(1, 2, "REPORT", '{"tag": 17}'))
    status, reports, log = _main("-", stdin=io.BytesIO(data))
    assert status == 0 and reports == ['{"tag": 17}']
    asked = [(e["frame"], e["payload"], e.get("tag")) for e in log if e.get("frame") in ("REQUEST", "RECALL")]
    assert asked == [("REQUEST", "open_bets", 17), ("RECALL", "3", None)]


def test_a_frame_missing_from_the_sequence_is_a_gap_and_status_1():
    from firmware.link import frame
    data = frame.encode(1, 1, "OPEN", "-") + frame.encode(1, 2, "REPORT", "{}") + frame.encode(1, 4, "REPORT", "[]")
    status, reports, log = _main("-", stdin=io.BytesIO(data))
    assert status == 1 and reports == ["{}", "[]"]
    assert log[-1] == {"gap": "1.3", "to": "1.3"}


def test_frames_missing_at_the_end_of_a_boot_are_a_gap_its_next_open_shows():
    from firmware.link import frame
    data = (frame.encode(1, 1, "OPEN", "-") + frame.encode(1, 2, "REPORT", "{}")
            + frame.encode(2, 1, "OPEN", "1.4") + frame.encode(2, 2, "REPORT", "[]"))
    status, reports, log = _main("-", stdin=io.BytesIO(data))
    assert status == 1 and reports == ["{}", "[]"]
    assert {"gap": "1.3", "to": "1.4"} in log
    data = frame.encode(1, 1, "OPEN", "-") + frame.encode(1, 2, "REPORT", "{}") + frame.encode(2, 1, "OPEN", "1.2")
    assert _main("-", stdin=io.BytesIO(data))[0] == 0


def test_frames_whose_lf_the_noise_ate_are_all_kept_in_order():
    from firmware.link import frame
    one, two, three = (frame.encode(1, 1, "OPEN", "-"), frame.encode(1, 2, "REPORT", '{"a": "#1"}'),
                       frame.encode(1, 3, "REPORT", "{}"))
    data = b"xx" + one[:-1] + two[:-1] + three[:-1] + three        # noise, then three LFs lost
    status, reports, log = _main("-", stdin=io.BytesIO(data))
    assert reports == ['{"a": "#1"}', "{}"]
    n1, n2, n3 = len(one) - 1, len(two) - 1, len(three) - 1
    assert [(e.get("frame"), e.get("damaged"), e["at"]) for e in log] == [
        (None, "no_start", 0), ("OPEN", None, 2), ("REPORT", None, 2 + n1), ("REPORT", None, 2 + n1 + n2),
        ("REPORT", None, 2 + n1 + n2 + n3)]
    assert log[-1]["duplicate"] and status == 1
    many = b"".join(frame.encode(1, i, "REPORT", "{}")[:-1] for i in range(1, 5001))   # no LF at all
    status, reports, log = _main("-", stdin=io.BytesIO(many + b"\n"))
    assert status == 0 and len(reports) == 5000
