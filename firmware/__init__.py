# Table firmware: the code that runs on the board (MicroPython) and, unchanged, on CPython.
