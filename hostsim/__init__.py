# Host simulator: CPython stand-ins for the board and its peripherals.
