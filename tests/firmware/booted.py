# A whole table booted as on a board (firmware.startup.boot from boards/pico.json and a sim table file) on the
# fake machine, through its boot lamp test to READY: for tests of the main loop's passes (both runtimes).
from firmware import main, startup
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule


def boot_unrun(state, game):
    """startup.boot of a `game` table (baccarat, craps, omaha) keeping its files in `state`, before its first
    pass: (ctx, machine)."""
    FakeLCD.missing = ()
    machine = FakeMachine()
    machine.usb = machine.UART(9)
    ctx = startup.boot(machine, FakeNeoPixelModule(), "boards/pico.json", "boards/tables/sim-%s.json" % game,
                       state, FakeLCD, machine.usb)
    return ctx, machine


def lamp_test(ctx):
    """The boot lamp test's passes, then READY."""
    for _ in range(60):
        main.poll_inputs(ctx, 100)
        main.refresh_outputs(ctx, True)


def boot_pico(state, game):
    """The booted Context of a `game` table (baccarat, craps, omaha) keeping its files in `state`."""
    ctx, _ = boot_unrun(state, game)
    lamp_test(ctx)
    return ctx
