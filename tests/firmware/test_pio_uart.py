# The PIO UART driver against a fake rp2 (both runtimes; the VM has no rp2 module).
import sys

from firmware import board as board_mod
from firmware.compat import heap_lock, heap_unlock
from firmware.drivers import pio_uart
from firmware.drivers.pio_uart import PioUart
from firmware.drivers.serial_line import SerialLine
from firmware.hardware import bring_up
from tests.firmware.expect import raises
from tests.firmware.fakes import FakeMachine, FakeNeoPixelModule, FakeRP2, FakeUART

# The receiver and transmitter of MicroPython's examples/rp2/pio_uart_rx.py and pio_uart_tx.py,
# the receiver with its byte-ready IRQ and without the stall on a framing error (see the driver).
RX_PROGRAM = [
    ("label", "start"),
    ("wait", 0, "pin", 0),
    ("set", "x", 7, "delay", 10),
    ("label", "bitloop"),
    ("in_", "pins", 1),
    ("jmp", "x_dec", "bitloop", "delay", 6),
    ("jmp", "pin", "good_stop"),
    ("wait", 1, "pin", 0),
    ("jmp", "start"),
    ("label", "good_stop"),
    ("push", "noblock"),
    ("irq", ("rel", 0)),
]
TX_PROGRAM = [
    ("pull",),
    ("set", "x", 7, "side", 0, "delay", 7),
    ("label", "bitloop"),
    ("out", "pins", 1, "delay", 6),
    ("jmp", "x_dec", "bitloop"),
    ("nop", "side", 1, "delay", 6),
]


def _uart(block=0, sm=0, tx=2, rx=3, baudrate=9600):
    rp2 = FakeRP2()
    machine = FakeMachine()
    uart = PioUart(rp2, machine, block, sm, tx, rx, baudrate)
    first = block * pio_uart.SMS_PER_PIO + sm
    return uart, rp2.machines[first], rp2.machines[first + 1], machine


def test_the_programs_are_the_standard_pio_uart_programs():
    rp2 = FakeRP2()
    rx, tx = pio_uart.programs(rp2)
    assert rx.code == RX_PROGRAM and tx.code == TX_PROGRAM
    assert rx.settings == {"in_shiftdir": rp2.PIO.SHIFT_RIGHT, "fifo_join": rp2.PIO.JOIN_RX}
    assert tx.settings == {"sideset_init": rp2.PIO.OUT_HIGH, "out_init": rp2.PIO.OUT_HIGH,
                           "out_shiftdir": rp2.PIO.SHIFT_RIGHT, "fifo_join": rp2.PIO.JOIN_TX}
    # asm_pio swapped the driver module's globals while the bodies ran: all of them are back
    assert pio_uart.PioUart is PioUart and pio_uart.programs(rp2) == (rx, tx)
    assert rp2.assembled == 2                          # once per rp2 module: a loaded program is shared


def test_state_machines_pins_and_clock_come_from_the_port():
    uart, rx, tx, machine = _uart(block=1, sm=2, tx=14, rx=15, baudrate=115200)
    assert (rx.id, tx.id) == (6, 7)                    # PIO 1: state machines 4..7
    assert rx.freq == tx.freq == 8 * 115200            # 8 cycles per bit
    assert rx.pins["in_base"] is rx.pins["jmp_pin"] is machine.pins[15]
    assert tx.pins["out_base"] is tx.pins["sideset_base"] is machine.pins[14]
    assert rx.handler is not None and rx.hard            # bytes leave the FIFO from a hard IRQ
    assert rx.active() and tx.active()


def test_a_line_arrives_through_the_irq_and_serial_line():
    uart, rx, _, _ = _uart()
    line = SerialLine(uart)
    for byte in b"B1 00 HELLO rfid-1.4*A1F6\n":
        rx.receive(byte)
    assert line.poll() == b"B1 00 HELLO rfid-1.4*A1F6"
    assert uart.any() == 0 and uart.overruns == 0 and rx.lost == 0


def test_a_frame_longer_than_the_fifo_between_two_polls_is_kept_whole():
    # 96 bytes arrive while the loop is busy (an OLED redraw): the FIFO holds 8, the IRQ keeps up.
    uart, rx, _, _ = _uart()
    frame = b"B1 03 SEAT 5 player=250000 tie=10000 player_pair=5000 banker_pair=5000 banker=120000*C7F8\n"
    for byte in frame:
        rx.receive(byte)
    assert rx.lost == 0
    assert SerialLine(uart).poll() == frame[:-1]


def test_polling_takes_what_waits_in_the_fifo_with_irqs_off():
    uart, rx, _, machine = _uart()
    for byte in b"Kh\n":
        rx.receive(byte, irq=False)                    # the handler has not run (yet)
    assert uart.any() == 3
    assert machine.irq_off == machine.irq_on == 1      # the ring's two writers never overlap
    buf = bytearray(8)
    assert uart.readinto(buf, 2) == 2 and bytes(buf[:2]) == b"Kh"
    assert uart.readinto(buf) == 1 and buf[0] == 10
    assert uart.readinto(buf) is None                  # nothing waiting, as machine.UART says it


def test_a_full_ring_drops_and_counts_what_does_not_fit():
    uart, rx, _, _ = _uart()
    for i in range(300):
        rx.receive(i & 0xFF)
    assert uart.any() == 255 and uart.overruns == 45   # one slot of 256 stays free
    buf = bytearray(300)
    assert uart.readinto(buf) == 255
    assert bytes(buf[:255]) == bytes(range(255))       # the oldest bytes kept, in order
    rx.receive(0x41)
    assert uart.any() == 1 and uart.readinto(buf, 1) == 1 and buf[0] == 0x41    # the ring wraps


def test_reads_of_any_size_across_the_rings_end_give_every_byte_once_in_order():
    # readinto copies a run at a time (up to the head, the ring's end or n): every split of the bytes
    # across the ring's end, by reads of every size, gives them back in order.
    for n in range(1, 9):
        uart, rx, _, _ = _uart()
        buf = bytearray(300)
        for i in range(250):
            rx.receive(i & 0x7F)
        assert uart.readinto(buf) == 250                # the tail near the ring's end (256 slots)
        sent = [(i * 7 + n) & 0xFF for i in range(23)]
        for byte in sent:
            rx.receive(byte)
        got = []
        while True:
            k = uart.readinto(buf, n)
            if k is None:
                break
            assert 1 <= k <= n
            got.extend(buf[:k])
        assert got == sent, n


def test_receiving_and_reading_allocate_nothing():
    # On MicroPython the lock is real: the IRQ handler runs as a hard IRQ, where allocating fails.
    uart, rx, _, _ = _uart()
    one = bytearray(1)
    rx.receive(0xFF, irq=False)
    uart.any()
    uart.readinto(one, 1)
    for _ in range(4):
        rx.fifo.append(0xC3)                           # bytes >= 0x40: the word byte << 24 is no small int
    heap_lock()
    try:
        uart._on_rx(rx)
        n = uart.any()
        got = uart.readinto(one, 1)
    finally:
        heap_unlock()
    assert n == 4 and got == 1 and one[0] == 0xC3


def test_write_fills_the_fifo_then_queues_and_sends_on_later_calls():
    uart, _, tx, _ = _uart()
    assert uart.write(b"0123456789ABCDEFGHIJ") == 20
    assert tx.tx_fifo() == 8 and uart.tx_pending() == 12     # never waits for the wire
    tx.shift_out(5)
    uart.any()                                          # the next poll moves the queue on
    assert tx.tx_fifo() == 8 and uart.tx_pending() == 7
    line = SerialLine(uart)
    line.write_line("ok")
    for _ in range(4):
        tx.shift_out()
        uart.any()
    assert tx.sent() == b"0123456789ABCDEFGHIJok\r\n" and uart.tx_pending() == 0


def test_write_beyond_the_queue_drops_and_counts():
    uart, _, tx, _ = _uart()
    data = bytes(range(200))
    assert uart.write(data) == 127 + 8                  # the ring's 127, then 8 in the FIFO
    assert uart.tx_dropped == 200 - 135
    tx.shift_out()
    for _ in range(20):
        uart.any()
        tx.shift_out()
    assert tx.sent() == data[:135]


def _pico():
    return board_mod.load("boards/pico.json")


def test_bring_up_makes_the_pico_bet_reader_port_a_pio_uart():
    rp2 = FakeRP2()
    machine = FakeMachine()
    hw = bring_up(_pico(), "baccarat", machine, FakeNeoPixelModule(), usb_console=FakeUART(), rp2=rp2)
    assert isinstance(hw.uarts["bets"], PioUart) and sorted(rp2.machines) == [0, 1]
    assert rp2.machines[0].pins["in_base"] is machine.pins[3] and rp2.machines[1].pins["out_base"] is machine.pins[2]
    for byte in b"B1 00 HELLO x*0000\n":
        rp2.machines[0].receive(byte)
    assert hw.ports["bets"].poll() == b"B1 00 HELLO x*0000"
    assert sorted(machine.uarts) == [0, 1]             # the RP2040's two UARTs: shoe/dice and host


def test_bring_up_imports_rp2_only_for_a_board_with_a_pio_port():
    saved = sys.modules.pop("rp2", None)          # no rp2 module at all, as on an ESP32-S3
    try:
        hw = bring_up(board_mod.load("boards/sim.json"), "baccarat", FakeMachine(), FakeNeoPixelModule())
        assert not isinstance(hw.uarts["bets"], PioUart)                   # sim: a UART, no rp2 needed
        raises(ImportError, bring_up, _pico(), "baccarat", FakeMachine(), FakeNeoPixelModule(), usb_console=FakeUART())
        rp2 = FakeRP2()
        sys.modules["rp2"] = rp2                   # what `import rp2` finds on an RP2040
        bring_up(_pico(), "baccarat", FakeMachine(), FakeNeoPixelModule(), usb_console=FakeUART())
        assert sorted(rp2.machines) == [0, 1]
    finally:
        if saved is None:
            sys.modules.pop("rp2", None)
        else:
            sys.modules["rp2"] = saved


def test_bring_up_builds_the_scoreboard_oled():
    machine = FakeMachine()
    hw = bring_up(_pico(), "baccarat", machine, FakeNeoPixelModule(), usb_console=FakeUART(), rp2=FakeRP2())
    oled = hw.displays["scoreboard"]
    assert (oled.addr, oled.width, oled.height) == (60, 128, 64) and oled.transmits >= 4    # initialised, shown
    assert hw.faults == []
