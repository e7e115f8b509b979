"""The floor: tables' reports through a gateway into MQTT (docs/floor.md).

    python -m tools.floor gateway --tables tables.json [--broker mqtt://HOST:PORT | embedded] [--floor NAME]
    python -m tools.floor simulate --tables N --rounds R --seed S [--broker embedded|mosquitto|mqtt://HOST:PORT]
                                   [--kill-broker-every SEC] [--kill-gateway-every SEC]
    python -m tools.floor status --floor NAME [--broker mqtt://HOST:PORT]

gateway: every table's report link (tables.json: {"floor": NAME, "tables":
[{"table": NAME, "port": PATH, "baud": N}, ...]}) published on
casino/<floor>/<table>/<event> with QoS 1, each frame acknowledged to the
table once the broker has it; with no broker named (or `embedded`) an
in-process broker listens on --listen (127.0.0.1:1883). simulate: N simulated
tables, the gateway, a broker and a consumer; one JSON summary line (exit 1
when a report was lost or came out of order). status: each table's last
status from the broker, one JSON line a table.
"""
import argparse
import json
import sys
import time


def _status(args, out, err):
    import threading

    import paho.mqtt.client as mqtt

    from tools.floor.broker import BrokerError, parse_url
    from tools.floor.gateway import STATUS_EVERY_S
    from tools.floor.tables import TablesError, check_floor

    if not 0 <= args.wait < float("inf"):         # nan, inf and -1 would reach time.sleep
        err.write("tools.floor status: --wait must be a number of seconds, 0 or more\n")
        return 2
    try:
        check_floor(args.floor)
        host, port = parse_url(args.broker)
    except (BrokerError, TablesError) as exc:
        err.write("tools.floor status: %s\n" % exc)
        return 2
    got = {}
    lock = threading.Lock()

    def on_message(client, userdata, message):
        try:
            status = json.loads(message.payload)
        except ValueError:
            return
        if isinstance(status, dict):
            with lock:
                got[message.topic.split("/")[2]] = status

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, clean_session=True)
    client.on_message = on_message
    client.on_connect = lambda c, u, f, rc, p: c.subscribe("casino/%s/+/status" % args.floor, qos=1)
    try:
        client.connect(host, port, keepalive=5)
    except OSError as exc:
        err.write("tools.floor status: cannot reach the broker at %s: %s\n" % (args.broker, exc))
        return 2
    client.loop_start()
    time.sleep(args.wait)                    # the retained status of every table arrives at once
    client.disconnect()
    client.loop_stop()
    if not got:
        err.write("tools.floor status: no table status on casino/%s/+/status\n" % args.floor)
        return 1
    now_ms = time.time() * 1000
    for table in sorted(got):
        status = got[table]
        # The gateway refreshes every status each STATUS_EVERY_S: an older one is no longer its word.
        # A status without its time (not the gateway's: anyone may publish on the topic) is stale too.
        at_ms = status.get("at_ms")
        fresh = isinstance(at_ms, (int, float)) and not isinstance(at_ms, bool)
        status["stale"] = not fresh or now_ms - at_ms > 3000 * STATUS_EVERY_S
        out.write(json.dumps(status) + "\n")
    return 0


def main(argv=None, out=None, err=None):
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    ap = argparse.ArgumentParser(prog="python -m tools.floor", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    gw = sub.add_parser("gateway", help="the tables' report links into MQTT")
    gw.add_argument("--tables", required=True, help="tables.json: the floor's name and each table's port")
    gw.add_argument("--broker", default="embedded", help="mqtt://HOST:PORT, or embedded (default)")
    gw.add_argument("--listen", default="127.0.0.1:1883", help="embedded: where it listens (HOST:PORT)")
    gw.add_argument("--floor", help="the floor's name in the topics (default: tables.json's)")
    gw.add_argument("--client-id", help="its MQTT client id (default floor-gateway-FLOOR): one per gateway")
    gw.add_argument("--spool", metavar="DIR", help="where the pieces of a report longer than a board's window "
                                                   "are kept once acknowledged, and each table's mark (a folder "
                                                   "of its own, kept over restarts; default: not kept, "
                                                   "docs/floor.md)")
    sim = sub.add_parser("simulate", help="simulated tables, the gateway, a broker and a consumer")
    sim.add_argument("--tables", type=int, default=3, help="simulated tables (the three games in turn)")
    sim.add_argument("--rounds", type=int, default=10, help="rounds per table (Craps: shooters, Omaha: hands)")
    sim.add_argument("--seed", type=int, default=1, help="table i plays seed S+i")
    sim.add_argument("--broker", default="embedded", help="embedded (default), mosquitto, or mqtt://HOST:PORT")
    sim.add_argument("--floor", default="sim", help="the floor's name in the topics")
    sim.add_argument("--kill-broker-every", type=float, metavar="SEC", help="restart the broker this often")
    sim.add_argument("--kill-gateway-every", type=float, metavar="SEC", help="kill and restart the gateway")
    st = sub.add_parser("status", help="each table's last status, from the broker")
    st.add_argument("--floor", required=True)
    st.add_argument("--broker", default="mqtt://127.0.0.1:1883")
    st.add_argument("--wait", type=float, default=1.0, help="seconds to collect the retained statuses")
    args = ap.parse_args(argv)
    if args.command == "gateway":
        from tools.floor.gateway import main_gateway
        return main_gateway(args, out, err)
    if args.command == "simulate":
        from tools.floor.simulate import main_simulate
        return main_simulate(args, out, err)
    return _status(args, out, err)


if __name__ == "__main__":
    sys.exit(main())
