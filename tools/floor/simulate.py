"""`python -m tools.floor simulate`: N simulated tables, the gateway, a broker and a consumer; one summary line.

The tables are tools.floor.table processes (the three games in turn, each the
unchanged firmware on the simulated board, one per process), each with its
report link on a pty; the gateway is a `python -m tools.floor gateway`
process on those ptys (so --kill-gateway-every kills it with SIGKILL, as a
crash would, and starts a new one); the broker is the embedded one, a
Mosquitto of our own or a URL; the consumer (tools.floor.consumer) is a
subscriber on a persistent session that drops duplicates by their mark.

Each table says when each report first went out on its line (its position
and the wall clock); the consumer says when each first arrived. The summary:
reports_expected (what the tables made), delivered (distinct reports that
arrived), duplicates_dropped, lost (made, never arrived), out_of_order,
unexpected (arrived, never made), the latency from the table's line to the
consumer (p50, p99, max, in ms) and reports_per_s (delivered over the time
from the first report made to the last one delivered).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from tools.floor.broker import BrokerError, start_broker
from tools.floor.consumer import Consumer
from tools.floor.tables import TablesError, check_floor

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAMES = ("baccarat", "craps", "omaha")
DELIVERY_WAIT_S = 20.0        # after the tables are done: the consumer must have everything within this
GATEWAY_DOWN_S = 0.2          # a killed gateway is started again after this
BROKER_DOWN_S = 0.5           # a restarted broker is away this long


class _TableProc:
    def __init__(self, index, game, rounds, seed, deadline_s):
        self.name = "t%03d" % (index + 1)
        self.game = game
        self.made = {}            # (boot, seq) -> wall time it first went out
        self.done = None          # the table's last line
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tools.floor.table", "--game", game, "--rounds", str(rounds),
             "--seed", str(seed), "--deadline", str(deadline_s), "--table-id", self.name, "--stay"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO)
        first = json.loads(self.proc.stdout.readline() or "{}")
        if "pty" not in first:
            raise RuntimeError("table %s did not start" % self.name)
        self.pty = first["pty"]
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for text in self.proc.stdout:
            line = json.loads(text)
            if "made" in line:
                self.made[tuple(line["made"])] = line["t"]
            elif "done" in line:
                self.done = line

    def finished(self):
        return self.done is not None or self.proc.poll() is not None

    def close(self):
        """Let the table go (it keeps its pty until now: the gateway must be stopped first)."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(5)


class _GatewayProc:
    def __init__(self, tables_file, url, floor, log_path):
        self.args = [sys.executable, "-m", "tools.floor", "gateway", "--tables", tables_file, "--broker", url,
                     "--floor", floor, "--spool", os.path.join(os.path.dirname(log_path), "spool")]
        self.log = open(log_path, "a")
        self.kills = 0
        self.cpu_s = 0.0          # the gateway processes' CPU time (Linux: /proc), all incarnations
        self.cpu_known = True
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=self.log, cwd=REPO)

    def kill(self):
        """SIGKILL (a crash: nothing saved, nothing said), then a new gateway."""
        self._count_cpu()
        self.proc.kill()
        self.proc.wait()
        self.kills += 1
        time.sleep(GATEWAY_DOWN_S)
        self.start()

    def _count_cpu(self):
        try:
            with open("/proc/%d/stat" % self.proc.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            self.cpu_s += (int(fields[11]) + int(fields[12])) / float(os.sysconf("SC_CLK_TCK"))
        except (OSError, ValueError, IndexError):
            self.cpu_known = False

    def stop(self):
        if self.log.closed:
            return
        if self.proc.poll() is None:
            self._count_cpu()
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def _percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


def simulate(tables, rounds, seed, broker="embedded", kill_broker_every=None, kill_gateway_every=None,
             floor="sim", deadline_s=600.0):
    """Run the floor; the summary (a dict)."""
    url, own_broker = start_broker(broker)
    if kill_broker_every and own_broker is None:
        raise BrokerError("--kill-broker-every needs a broker started here (embedded or mosquitto)")
    # Its own client id and session: a broker that outlives the run (a URL) must not hand this run
    # what an earlier run's consumer left waiting (the same tables, boot 1 again).
    try:
        consumer = Consumer(floor, url, client_id="floor-consumer-%s-%s" % (floor, uuid.uuid4().hex[:12])).start()
    except (OSError, RuntimeError) as exc:      # nothing listening there, or it does not let us subscribe
        if own_broker is not None:
            own_broker.stop()
        raise BrokerError("cannot reach the broker at %s: %s" % (url, exc))
    workdir = tempfile.mkdtemp(prefix="floor-sim-")      # once nothing is left to refuse: the finally removes it
    procs, gateway = [], None
    started = time.monotonic()
    try:
        procs = [_TableProc(i, GAMES[i % len(GAMES)], rounds, seed + i, deadline_s) for i in range(tables)]
        tables_file = os.path.join(workdir, "tables.json")
        with open(tables_file, "w") as f:
            json.dump({"floor": floor, "tables": [{"table": p.name, "port": p.pty, "reopen": False} for p in procs]},
                      f)
        gateway = _GatewayProc(tables_file, url, floor, os.path.join(workdir, "gateway.log"))
        next_broker = started + kill_broker_every if kill_broker_every else None
        next_gateway = started + kill_gateway_every if kill_gateway_every else None
        while not all(p.finished() for p in procs):
            now = time.monotonic()
            if next_gateway is not None and now >= next_gateway:
                gateway.kill()
                next_gateway = time.monotonic() + kill_gateway_every
            if next_broker is not None and now >= next_broker:
                own_broker.restart(BROKER_DOWN_S, keep_ports=(consumer.local_port(),))
                next_broker = time.monotonic() + kill_broker_every
            time.sleep(0.05)
        expected = set((p.name,) + key for p in procs for key in p.made)
        consumer.wait_for(expected, DELIVERY_WAIT_S)
        gateway.stop()
        for p in procs:
            p.close()
        return _summary(procs, consumer, expected, started, broker, own_broker, gateway, rounds, seed)
    finally:
        if gateway is not None:
            gateway.stop()
        for p in procs:
            if p.proc.poll() is None:
                p.close()
        consumer.stop(forget=True)
        if own_broker is not None:
            own_broker.stop()
        if not os.environ.get("FLOOR_KEEP"):        # FLOOR_KEEP=1: keep tables.json and gateway.log
            shutil.rmtree(workdir, ignore_errors=True)


def _summary(procs, consumer, expected, started, broker, own_broker, gateway, rounds, seed):
    with consumer.lock:
        received = dict(consumer.received)
        duplicates, out_of_order = consumer.duplicates, consumer.out_of_order
    made_at = dict(((p.name,) + key, t) for p in procs for key, t in p.made.items())
    delivered = [key for key in received if key in expected]
    latencies = [(received[key] - made_at[key]) * 1000.0 for key in delivered]
    first = min(made_at.values()) if made_at else None
    last = max(received[key] for key in delivered) if delivered else None
    span = (last - first) if delivered else 0
    failures = [{"table": p.name, "game": p.game, "error": (p.done or {}).get("error", "no summary")}
                for p in procs if not (p.done or {}).get("done")]
    games = {}
    for p in procs:
        games[p.game] = games.get(p.game, 0) + 1
    summary = {
        "tables": len(procs),
        "games": games,
        "rounds": rounds,
        "seed": seed,
        "broker": broker if broker in ("embedded", "mosquitto") else "url",
        "reports_expected": len(expected),
        "delivered": len(delivered),
        "duplicates_dropped": duplicates,
        "lost": len(expected) - len(delivered),
        "lost_first": sorted(expected - set(delivered))[:5],
        "out_of_order": out_of_order,
        "unexpected": len(received) - len(delivered),
        "latency_ms_p50": _round(_percentile(latencies, 50)),
        "latency_ms_p99": _round(_percentile(latencies, 99)),
        "latency_ms_max": _round(max(latencies) if latencies else None),
        "reports_per_s": round(len(delivered) / span, 1) if span > 0 else None,
        "refused_on_board": sum((p.done or {}).get("refused_on_board", 0) for p in procs),
        "board_retransmissions": sum((p.done or {}).get("retransmissions", 0) for p in procs),
        "gateway_cpu_s": round(gateway.cpu_s, 2) if gateway.cpu_known else None,
        "gateway_restarts": gateway.kills,
        "broker_restarts": own_broker.restarts if own_broker is not None else 0,
        "table_failures": failures,
        "wall_s": round(time.monotonic() - started, 3),
    }
    return summary


def _round(value):
    return None if value is None else round(value, 1)


def main_simulate(args, out=sys.stdout, err=sys.stderr):
    """The summary line; exit 0 when nothing was lost (nor refused by a board's full store), nothing
    came out of order and every table finished."""
    for name in ("tables", "rounds"):
        if getattr(args, name) < 1:
            err.write("tools.floor simulate: --%s must be at least 1\n" % name)
            return 2
    try:
        check_floor(args.floor)
    except TablesError as exc:
        err.write("tools.floor simulate: %s\n" % exc)
        return 2
    for name in ("kill_broker_every", "kill_gateway_every"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            err.write("tools.floor simulate: --%s must be a positive number of seconds\n"
                      % name.replace("_", "-"))
            return 2
    try:
        summary = simulate(args.tables, args.rounds, args.seed, args.broker, args.kill_broker_every,
                           args.kill_gateway_every, args.floor)
    except BrokerError as exc:
        err.write("tools.floor simulate: %s\n" % exc)
        return 2
    out.write(json.dumps(summary) + "\n")
    out.flush()
    ok = (summary["lost"] == 0 and summary["out_of_order"] == 0 and summary["refused_on_board"] == 0
          and not summary["table_failures"])
    return 0 if ok else 1
