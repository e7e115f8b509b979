"""hostsim's rp2 (issue 9): the pico's bet reader runs on the firmware's PIO UART over simulated state machines.

The assembler emits MicroPython's words; a state machine runs only the PIO UART
programs it recognises, wired to the board's PIO port pins.
"""
import errno

import pytest

from firmware import board as board_mod
from firmware.drivers import pio_uart
from firmware.drivers.pio_uart import PioUart
from firmware.drivers.serial_line import SerialLine
from firmware.hardware import bring_up
from hostsim import hardware

FRAME = b"B1 03 SEAT 5 player=250000 tie=10000 player_pair=5000 banker_pair=5000 banker=120000*C7F8"


@pytest.fixture
def pico():
    board = board_mod.load("boards/pico.json")
    hw = hardware.install(board=board)
    import machine
    import neopixel
    from tests.firmware.fakes import FakeUART
    fw = bring_up(board, "baccarat", machine, neopixel, usb_console=FakeUART())
    yield hw, fw, machine
    hardware.uninstall()


def test_bet_reader_bytes_arrive_through_the_simulated_pio_and_serial_line(pico):
    hw, fw, _ = pico
    import rp2
    from hostsim import rp2 as sim_rp2
    assert rp2 is sim_rp2 and isinstance(fw.uarts["bets"], PioUart)
    assert ("bets", "pio0.0", None) in hw.port_paths()
    assert hw.port("bets") is hw.port("pio0.0") is hw.pio_ports["pio0.0"].endpoint
    rx, tx = hw.state_machines[0], hw.state_machines[1]
    assert (rx.kind, tx.kind) == ("uart_rx", "uart_tx") and rx.active and tx.active
    assert rx.pins == {"in_base": 3, "jmp_pin": 3} and tx.pins == {"out_base": 2, "sideset_base": 2}
    assert rx.baudrate == tx.baudrate == 9600
    assert hw.pins[2].mode == 1 and hw.pins[2].level == 1          # the PIO drives TX, idle high
    hw.port("bets").feed(FRAME + b"\n")
    hw.advance(200)                    # the line brings the bytes at 9600 baud
    assert fw.ports["bets"].poll(10) == FRAME
    assert hw.pio_ports["pio0.0"].rx_count == len(FRAME) + 1
    fw.ports["bets"].write_line("ACK 5")
    assert hw.port("bets").take() == b"ACK 5\r\n"
    assert fw.ports["shoe"] is not fw.ports["bets"] and hw.uarts[0].roles == ["dice", "shoe"]


def test_the_state_machine_moves_bytes_by_itself_through_the_irq(pico):
    # While the firmware is busy elsewhere the PIO keeps receiving: the IRQ handler empties the 8-word FIFO.
    hw, fw, machine = pico
    uart = fw.uarts["bets"]
    hw.port("bets").feed(FRAME + b"\n")
    hw.advance(200)                    # the line brings the bytes at 9600 baud
    hw.run_pio()
    assert hw.state_machines[0].rx == [] and hw.port("bets").pending() == 0
    assert uart._waiting() == len(FRAME) + 1
    state = machine.disable_irq()
    hw.port("bets").feed(b"0123456789ABCDEFGHIJ\n")
    hw.advance(200)                    # the line brings the bytes at 9600 baud
    hw.run_pio()
    assert len(hw.state_machines[0].rx) == 8                         # full; the rest waits on the line
    assert hw.state_machines[0].irq_flag and uart._waiting() == len(FRAME) + 1
    machine.enable_irq(state)                                        # the pending interrupt runs now
    assert hw.state_machines[0].rx == [] and uart._waiting() == len(FRAME) + 1 + 21
    line = fw.ports["bets"]
    assert line.poll(10) == FRAME and line.poll(10) == b"0123456789ABCDEFGHIJ"
    assert uart.overruns == 0


def test_get_on_an_empty_fifo_would_wait_for_ever(pico):
    import rp2
    sm = rp2.StateMachine(0)
    assert sm.rx_fifo() == 0
    with pytest.raises(RuntimeError, match="would wait for ever"):
        sm.get()


def test_fifo_depths_follow_each_program_s_join_as_the_rp2040_s_and_a_full_one_is_named(pico):
    # (mutants of hostsim/pio.py) RP2040 datasheet 3.2.4: 4 words each way, or 8 one way when the program
    # joins them (the PIO UART's receiver JOIN_RX, its transmitter JOIN_TX); a put() nothing would empty names it.
    hw, _, machine = pico
    import rp2
    rx_prog, tx_prog = pio_uart.programs(rp2)
    depths = []
    for sm_id, prog, pin in ((4, rx_prog, 26), (5, tx_prog, 27), (6, tx_prog, 28)):
        if prog is rx_prog:
            rp2.StateMachine(sm_id, prog, freq=8 * 9600, in_base=machine.Pin(pin), jmp_pin=machine.Pin(pin))
        else:
            rp2.StateMachine(sm_id, prog, freq=8 * 9600, sideset_base=machine.Pin(pin), out_base=machine.Pin(pin))
        state = hw.state_machines[sm_id]
        depths.append((state.rx_depth, state.tx_depth))
    assert depths[:2] == [(8, 0), (0, 8)]
    sm = rp2.StateMachine(6)                            # stopped: nothing empties its FIFO
    for word in range(8):
        sm.put(word)
    with pytest.raises(RuntimeError, match=r"StateMachine\(6\)\.put\(\) would wait for ever: its TX FIFO is full "
                                           r"\(8 words\) and the state machine is stopped"):
        sm.put(8)


def test_a_state_machine_at_another_baud_rate_hears_only_garbage(pico):
    hw, _, machine = pico
    import rp2
    uart = PioUart(rp2, machine, 0, 0, 2, 3, 19200)                  # the reader sends at 9600
    hw.port("bets").feed(b"Kh\n")
    hw.advance(200)                    # the line brings the bytes at 9600 baud
    assert uart.any() == 0 and hw.state_machines[0].garbled == 3
    uart.write(b"x")
    assert hw.port("bets").take() == b"" and hw.state_machines[1].garbled == 1


def test_a_pin_with_nothing_wired_hears_nothing(pico):
    hw, _, machine = pico
    import rp2
    uart = PioUart(rp2, machine, 1, 0, 26, 27, 9600)
    hw.port("bets").feed(b"Kh\n")
    assert uart.any() == 0 and hw.port("bets").pending() == 3
    uart.write(b"hello")
    assert hw.state_machines[5].unheard == 5 and hw.port("bets").take() == b""


def test_reset_stops_the_state_machines_and_frees_the_pio_memory(pico):
    hw, _, machine = pico
    import neopixel
    from tests.firmware.fakes import FakeUART
    assert hw.pio_blocks[0].slots.count(None) == 32 - 14            # receiver 9 + transmitter 5 instructions
    hw.reboot(hardware.SOFT_RESET)
    assert not hw.state_machines[0].active and hw.state_machines[0].kind is None
    assert hw.pio_blocks[0].slots.count(None) == 32
    fw = bring_up(board_mod.load("boards/pico.json"), "baccarat", machine, neopixel, usb_console=FakeUART())
    hw.port("bets").feed(b"Kh\n")                                    # the programs load again after the reset
    hw.advance(200)                    # the line brings the bytes at 9600 baud
    assert fw.ports["bets"].poll(10) == b"Kh"


def test_two_pio_uarts_in_one_block_share_its_programs(pico):
    hw, _, machine = pico
    import rp2
    PioUart(rp2, machine, 0, 2, 26, 27, 9600)
    assert hw.pio_blocks[0].slots.count(None) == 32 - 14
    rx, _ = pio_uart.programs(rp2)
    block = rp2.PIO(1)
    for _ in range(3):
        block.add_program(rx)                                        # 3 x 9 instructions fit in 32...
    with pytest.raises(OSError) as exc:
        block.add_program(rx)                                        # ...a fourth does not
    assert exc.value.errno == errno.ENOMEM
    block.remove_program()
    assert hw.pio_blocks[1].slots.count(None) == 32


def test_ids_and_clock_the_chip_does_not_have_are_refused(pico):
    _, _, machine = pico
    import rp2
    rx, _ = pio_uart.programs(rp2)
    with pytest.raises(ValueError, match="invalid StateMachine"):
        rp2.StateMachine(8)
    with pytest.raises(ValueError, match="invalid PIO"):
        rp2.PIO(2)
    with pytest.raises(ValueError, match="invalid StateMachine"):
        rp2.PIO(0).state_machine(4)
    line = machine.Pin(3)
    with pytest.raises(ValueError, match="freq out of range"):
        rp2.StateMachine(2, rx, freq=1000, in_base=line, jmp_pin=line)   # divider above 65536 at 125 MHz
    assert rp2.PIO(1).state_machine(1, rx, freq=76800, in_base=line, jmp_pin=line)._state.id == 5


def test_other_programs_are_assembled_but_not_run(pico):
    _, _, machine = pico
    import rp2

    @rp2.asm_pio(set_init=rp2.PIO.OUT_LOW)
    def blink():
        set(pins, 1)   [31]  # noqa: F821
        set(pins, 0)   [31]  # noqa: F821

    assert list(blink[0]) == [0xFF01, 0xFF00]
    with pytest.raises(NotImplementedError, match="runs only the UART programs"):
        rp2.StateMachine(2, blink, freq=2000, set_base=machine.Pin(6))
    rx, _ = pio_uart.programs(rp2)
    with pytest.raises(NotImplementedError, match="in_base and jmp_pin"):
        rp2.StateMachine(2, rx, freq=76800, in_base=machine.Pin(6), jmp_pin=machine.Pin(7))


def test_the_assembler_emits_micropythons_words():
    # RP2040 datasheet 3.4 encodings, as MicroPython's rp2.asm_pio emits them (checked by hand).
    from hostsim import rp2
    with hardware.install(board=board_mod.load("boards/pico.json")):
        rx, tx = pio_uart.programs(rp2)
    assert list(rx[0]) == [0x2020, 0xEA27, 0x4001, 0x0642, 0x00C7, 0x20A0, 0x0000, 0x8000, 0xC010]
    assert (rx[3], rx[4], rx[5:]) == (0x8000, 0x80040000, [None, None, None])     # wrap 8; RX joined, shift right
    assert list(tx[0]) == [0x80A0, 0xF727, 0x6601, 0x0042, 0xBE42]             # optional side-set: bit 12
    assert (tx[3], tx[4], tx[5:]) == (0x40004000, 0x40080000, [3, None, 3])

    @rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_RIGHT)
    def uart_rx_example():       # examples/rp2/pio_uart_rx.py as MicroPython ships it
        label("start")                 # noqa: F821
        wait(0, pin, 0)                # noqa: F821
        set(x, 7)                 [10]  # noqa: F821
        label("bitloop")               # noqa: F821
        in_(pins, 1)                   # noqa: F821
        jmp(x_dec, "bitloop")     [6]  # noqa: F821
        jmp(pin, "good_stop")          # noqa: F821
        irq(block, 4)                  # noqa: F821
        wait(1, pin, 0)                # noqa: F821
        jmp("start")                   # noqa: F821
        label("good_stop")             # noqa: F821
        push(block)                    # noqa: F821

    assert list(uart_rx_example[0]) == [0x2020, 0xEA27, 0x4001, 0x0642, 0x00C8, 0xC024, 0x20A0, 0x0000, 0x8020]
    with pytest.raises(rp2.PIOASMError, match="delay too large"):
        rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW)(lambda: nop().side(1)[16])    # noqa: F821


def test_scoreboard_oled_on_the_pico_and_sim_boards():
    from hostsim.lcd import SimLCD
    from hostsim.oled import SimSSD1306
    for name in ("pico", "sim", "esp32s3"):
        board = board_mod.load("boards/%s.json" % name)
        with hardware.install(board=board) as hw:
            import machine
            import neopixel
            from tests.firmware.fakes import FakeUART
            assert isinstance(hw.i2c_device(0, 60), SimSSD1306) and isinstance(hw.i2c_device(0, 39), SimLCD)
            fw = bring_up(board, "baccarat", machine, neopixel, usb_console=FakeUART())
            glass = hw.i2c_device(0, 60)
            assert fw.faults == [] and glass.display_on and glass.charge_pump, name
            fw.displays["scoreboard"].text("B", 0, 0, 1)
            fw.displays["scoreboard"].show()
            assert any(glass.pixels()[y][x] for y in range(8) for x in range(8)), name
