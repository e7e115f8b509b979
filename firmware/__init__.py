# Table firmware: the code that runs on the board (MicroPython) and, unchanged, on CPython.
from firmware import compat  # noqa: F401  (on CPython it gives the builtins MicroPython's const(): compat.py)
