# The board validator's ports section (firmware/board.py): each role's UART, PIO UART or USB, and their pins.
from firmware.board_checks import MCUS
from firmware.board_checks import fail as _fail
from firmware.board_checks import free_uarts as _free_uarts
from firmware.board_checks import keys as _keys
from firmware.board_checks import number as _int
from firmware.board_checks import shown as _shown
from firmware.board_checks import uart_hint as _uart_hint, unit as _unit
from firmware.board_checks import whole as _whole

PORT_ROLES = ("shoe", "dice", "bets", "host", "console")
# Card shoe and dice reader serve different games, so one board may wire both to one port.
SHAREABLE_PORTS = ("shoe", "dice")
# The devices' ports may be PIO UARTs. The host link and the console stay on a hardware
# UART: the boot refusal report opens the host port with `machine` alone, before bring-up.
PIO_PORTS = ("shoe", "dice", "bets")
UART_KEYS = ("uart", "tx", "rx", "baudrate")
PIO_KEYS = ("pio", "sm", "tx", "rx", "baudrate")   # RX on state machine sm, TX on sm + 1


def check_port(name, mcu, role, spec):
    """One port spec (not USB), its pins aside; returns ("uart", id) or ("pio", block, sm)."""
    where = "ports." + role
    if isinstance(spec, dict) and "pio" in spec:
        return _check_pio_port(name, mcu, role, spec)
    _keys(name, where, spec, UART_KEYS, UART_KEYS)
    _int(name, where + ".baudrate", spec["baudrate"], 300, 3000000)
    return ("uart", _unit(name, where + ".uart", spec["uart"], mcu, "uart"))


def _check_pio_port(name, mcu, role, spec):
    """A PIO UART: the receiver on state machine sm, the transmitter on sm + 1, both in PIO block pio."""
    where = "ports." + role
    if role not in PIO_PORTS:
        _fail(name, where, "the %s port must be a UART, not a PIO port (PIO ports: %s)"
              % (role, ", ".join(PIO_PORTS)))
    _keys(name, where, spec, PIO_KEYS, PIO_KEYS)
    blocks = MCUS[mcu].get("pio", ())
    if not blocks:
        _fail(name, where + ".pio", "%s has no PIO: a port there needs a UART (UART %s)" % (mcu, _free_uarts(mcu)))
    _int(name, where + ".baudrate", spec["baudrate"], 300, 3000000)
    block = spec["pio"]
    if not _whole(block) or block not in blocks:
        _fail(name, where + ".pio", "PIO %s does not exist on %s (PIO %s)"
              % (_shown(block), mcu, ", ".join([str(b) for b in blocks])))
    sms = MCUS[mcu]["pio_sms"]
    sm = spec["sm"]
    if not _whole(sm) or not 0 <= sm <= sms - 2:
        _fail(name, where + ".sm", "expected a state machine 0..%d, got %s (RX takes state machine sm and TX "
              "sm+1, of the %d in PIO %d on %s)" % (sms - 2, _shown(sm), sms, block, mcu))
    return ("pio", block, sm)


def _port_units(kind):
    """The units a port key takes: its UART, or its two state machines."""
    if kind[0] == "uart":
        return (kind,)
    return (("sm", kind[1], kind[2]), ("sm", kind[1], kind[2] + 1))


def _unit_name(unit):
    if unit[0] == "uart":
        return "UART %d" % unit[1]
    return "PIO %d state machine %d" % (unit[1], unit[2])


def claim_port_pins(plan, role, spec, kind, sharer=None):
    """sharer: the port role whose pins this one may share (shoe and dice on one port).

    A hardware UART's signals need pins with its function; PIO reaches any GPIO.
    """
    for signal in ("tx", "rx"):
        function = signal if kind[0] == "uart" else None
        plan.claim("ports.%s.%s" % (role, signal), spec[signal], sharer and "ports.%s.%s" % (sharer, signal),
                   function, kind[-1])


def check_ports(name, mcu, ports, plan):
    _keys(name, "ports", ports, PORT_ROLES, ("host", "console"))
    owner = {}                # UART or state machine -> the role that has it
    for role in PORT_ROLES:
        if role not in ports:
            continue
        spec = ports[role]
        where = "ports." + role
        if spec is None:                 # null is not "no port": the rest of the firmware would see one
            _fail(name, where, "expected an object (leave the key out for no port)")
        if isinstance(spec, dict) and "usb" in spec:
            if role != "console" or len(spec) != 1 or spec["usb"] is not True:
                _fail(name, where, "only the console may be {\"usb\": true}, with no other key")
            for pin, signal in MCUS[mcu].get("usb_pins", ()):     # (the RP2040's USB has pins of its own)
                plan.claim("%s (%s)" % (where, signal), pin)
            continue
        kind = check_port(name, mcu, role, spec)
        sharer = None
        for unit in _port_units(kind):
            other = owner.get(unit)
            if other is None:
                continue
            shareable = role in SHAREABLE_PORTS and other in SHAREABLE_PORTS
            if not (shareable and ports[other] == spec):
                _fail(name, where + (".sm" if unit[0] == "sm" else ""), "%s is already used by ports.%s%s"
                      % (_unit_name(unit), other, " (shoe and dice share a port only as one identical spec)"
                         if shareable else _uart_hint(mcu, role, ports, unit)))
            sharer = other
        for unit in _port_units(kind):
            owner[unit] = role
        claim_port_pins(plan, role, spec, kind, sharer)
