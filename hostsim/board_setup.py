# The simulated MCU set up from a board description (a dict from boards/*.json or a firmware.board.Board):
# which MCU it is, its serial ports opened and labelled with their roles, a simulated display at each
# display address. hostsim.hardware.install(board=...) uses it (and re-exports it).

DEFAULT_MCU = "hostsim"  # the MCU of no board, or of a board that names none


def board_mcu(board):
    """The "mcu" of a board description (dict or firmware.board.Board); the hostsim MCU if none is named."""
    if isinstance(board, dict):
        return board.get("mcu", DEFAULT_MCU)
    return getattr(board, "mcu", None) or DEFAULT_MCU


def board_section(board, name):
    """A section of a board description given as a dict or a firmware.board.Board."""
    if isinstance(board, dict):
        return board.get(name, {})
    return getattr(board, name, {}) or {}


def configure_from_board(hw, board):
    """Open the board's UARTs, PIO ports and USB console (labelled with roles); attach a SimLCD or SimSSD1306
    per display."""
    for role, spec in sorted(board_section(board, "ports").items()):
        if "uart" in spec or "pio" in spec:
            state = hw.uart(spec["uart"]) if "uart" in spec else hw.pio_port(spec["pio"], spec["sm"])
            state.roles.append(role)
            state.baudrate = spec.get("baudrate", state.baudrate)
            if "pio" in spec:           # the device's wires: what the state machines must use
                state.tx, state.rx = spec["tx"], spec["rx"]
        elif spec.get("usb"):
            hw.usb_console().roles[:] = [role]
    from hostsim.lcd import attach_displays
    from hostsim.oled import attach_oleds

    attach_displays(hw, board)
    attach_oleds(hw, board)
    return hw
