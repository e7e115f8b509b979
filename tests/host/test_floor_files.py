"""The floor's tables file and command line as an operator meets them: every mistake is one line naming
it, with exit status 2, never a traceback, and never a file read otherwise than it is written."""
import io
import socket

import pytest

from tools.floor import __main__ as floor_cli
from tools.floor.tables import TablesError, load_tables


def _load(tmp_path, text):
    path = tmp_path / "tables.json"
    path.write_text(text)
    return load_tables(str(path))


def test_a_key_the_tables_file_does_not_know_is_refused_by_name(tmp_path):
    """A misspelt key was ignored: {"baudrate": 9600} (the board file's word) ran the link at 115200, and
    {"reopn": false} reopened a freed pty; the operator never knew."""
    for text, words in (
        ('{"tables": [{"table": "a", "port": "/dev/x", "baudrate": 9600}]}',
         r"tables\[0\]: unknown key 'baudrate' \(expected table, port, baud, reopen\)"),
        ('{"tables": [{"table": "a", "port": "/dev/x", "reopn": false}]}', r"tables\[0\]: unknown key 'reopn'"),
        ('{"flor": "north", "tables": [{"table": "a", "port": "/dev/x"}]}',
         r"tables.json: unknown key 'flor' \(expected floor, tables\)"),
    ):
        with pytest.raises(TablesError, match=words):
            _load(tmp_path, text)


def test_a_key_given_twice_is_refused_rather_than_the_last_one_kept(tmp_path):
    """json keeps the last of two keys silently: {"port": "/dev/ttyUSB0", ..., "port": "/dev/ttyUSB1"}
    read a table's reports from the second device under a file that names the first."""
    for text, words in (
        ('{"floor": "north", "floor": "south", "tables": [{"table": "a", "port": "/dev/x"}]}',
         "floor: key given twice"),
        ('{"tables": [{"table": "a", "port": "/dev/x", "port": "/dev/y"}]}', "port: key given twice"),
    ):
        with pytest.raises(TablesError, match=words):
            _load(tmp_path, text)


def test_a_baud_of_true_is_no_baud_rate(tmp_path):
    """true is an int to Python: the link was opened at 1 baud."""
    for baud in ("true", "false", "1.5"):
        with pytest.raises(TablesError, match=r"tables\[0\]: baud must be a positive integer"):
            _load(tmp_path, '{"tables": [{"table": "a", "port": "/dev/x", "baud": %s}]}' % baud)


def test_a_file_nested_too_deeply_is_refused_not_a_traceback(tmp_path):
    path = tmp_path / "tables.json"
    path.write_text("[" * 100000 + "]" * 100000)
    with pytest.raises(TablesError, match="nested too deeply"):
        load_tables(str(path))
    err = io.StringIO()
    assert floor_cli.main(["gateway", "--tables", str(path), "--broker", "mqtt://127.0.0.1:1"],
                          out=io.StringIO(), err=err) == 2
    assert "nested too deeply" in err.getvalue()


def _closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_simulate_on_a_broker_it_cannot_reach_says_so(tmp_path):
    """simulate --broker mqtt://HOST:PORT with nothing there ended in ConnectionRefusedError's traceback."""
    err = io.StringIO()
    url = "mqtt://127.0.0.1:%d" % _closed_port()
    assert floor_cli.main(["simulate", "--tables", "1", "--rounds", "1", "--broker", url],
                          out=io.StringIO(), err=err) == 2
    assert err.getvalue().startswith("tools.floor simulate: cannot reach the broker at %s: " % url), err.getvalue()
    assert "Traceback" not in err.getvalue()


def test_status_refuses_a_negative_wait():
    """--wait -1 reached time.sleep: ValueError's traceback, after connecting to the broker."""
    for wait in ("-1", "nan", "inf"):
        err = io.StringIO()
        assert floor_cli.main(["status", "--floor", "north", "--wait", wait, "--broker", "mqtt://127.0.0.1:1"],
                              out=io.StringIO(), err=err) == 2
        assert "--wait must be a number of seconds, 0 or more" in err.getvalue(), err.getvalue()


def test_a_broker_each_command_cannot_take_is_refused_naming_what_it_takes(tmp_path):
    """Every command said "expected mqtt://HOST:PORT, 'embedded' or 'mosquitto'", also to `gateway --broker
    mosquitto` and `status --broker embedded`, which take neither."""
    path = tmp_path / "tables.json"
    path.write_text('{"floor": "north", "tables": [{"table": "a", "port": "/dev/x"}]}')
    for argv, says in (
        (["gateway", "--tables", str(path), "--broker", "mosquitto"],
         "broker 'mosquitto': expected mqtt://HOST:PORT or 'embedded'\n"),
        (["status", "--floor", "north", "--broker", "embedded"], "broker 'embedded': expected mqtt://HOST:PORT\n"),
        (["simulate", "--broker", "tcp://x"], "broker 'tcp://x': expected mqtt://HOST:PORT or 'embedded' or 'mosquitto'\n"),
    ):
        err = io.StringIO()
        assert floor_cli.main(argv, out=io.StringIO(), err=err) == 2
        assert err.getvalue().endswith(says), err.getvalue()


def test_a_port_outside_1_to_65535_is_refused():
    """mqtt://HOST:0 (and --listen HOST:0) went to port 1883 without a word; 99999 was 'not a number'."""
    for argv, says in (
        (["status", "--floor", "north", "--broker", "mqtt://127.0.0.1:0"],
         "broker 'mqtt://127.0.0.1:0': the port must be a number 1..65535"),
        (["status", "--floor", "north", "--broker", "mqtt://127.0.0.1:99999"],
         "broker 'mqtt://127.0.0.1:99999': the port must be a number 1..65535"),
        (["simulate", "--broker", "mqtt://127.0.0.1:x"], "broker 'mqtt://127.0.0.1:x': the port must be a number"),
        (["gateway", "--tables", "/nonexistent", "--listen", "127.0.0.1:0"], "/nonexistent"),
    ):
        err = io.StringIO()
        assert floor_cli.main(argv, out=io.StringIO(), err=err) == 2
        assert says in err.getvalue(), err.getvalue()


def test_the_embedded_brokers_listen_address_is_checked_as_such(tmp_path):
    path = tmp_path / "tables.json"
    path.write_text('{"floor": "north", "tables": [{"table": "a", "port": "/dev/x"}]}')
    for listen in ("127.0.0.1:0", "127.0.0.1:99999"):
        err = io.StringIO()
        assert floor_cli.main(["gateway", "--tables", str(path), "--listen", listen], out=io.StringIO(), err=err) == 2
        assert err.getvalue() == "tools.floor gateway: --listen %r: the port must be a number 1..65535\n" % listen


def test_a_refused_simulate_leaves_no_work_folder_behind(tmp_path, monkeypatch):
    """simulate made its folder for tables.json and gateway.log before it reached the broker: every refusal
    there (a broker it cannot reach, --kill-broker-every on a URL) left an empty floor-sim-* in /tmp."""
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    url = "mqtt://127.0.0.1:%d" % _closed_port()
    for extra in ([], ["--kill-broker-every", "1"]):
        assert floor_cli.main(["simulate", "--tables", "1", "--rounds", "1", "--broker", url] + extra,
                              out=io.StringIO(), err=io.StringIO()) == 2
    assert list(tmp_path.iterdir()) == []


def test_a_port_no_device_can_have_is_refused_by_name(tmp_path):
    """A NUL or a lone surrogate in a port path ended in os.path.realpath's ValueError or UnicodeEncodeError."""
    for port in ("/dev/x\\u0000y", "/dev/\\ud800", "/dev/tty\\nUSB0"):
        with pytest.raises(TablesError, match=r"tables\[0\]: port '.*' is no device path"):
            _load(tmp_path, '{"tables": [{"table": "a", "port": "%s"}]}' % port)
