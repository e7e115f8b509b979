# Text -> HD44780 character codes (ROM A00, the usual one), for the LCD driver (firmware/drivers/lcd.py).
#
# Printable ASCII except backslash and tilde, plus the few extras in _EXTRA, plus the four card suits,
# which the driver's init loads into CGRAM 0..3; anything else shows as "?".
REPLACEMENT = const(0x3F)   # "?"
# Card suits as user glyphs in CGRAM 0..3, in firmware.cards' suit order c d h s
# (5x8 dots, rows top to bottom).
SUIT_CHARS = "\u2663\u2666\u2665\u2660"
SUIT_GLYPHS = (
    b"\x00\x0e\x0e\x1f\x1f\x04\x0e\x00",   # club
    b"\x00\x04\x0e\x1f\x0e\x04\x00\x00",   # diamond
    b"\x00\x0a\x1f\x1f\x0e\x04\x00\x00",   # heart
    b"\x00\x04\x0e\x1f\x1f\x04\x0e\x00",   # spade
)
# Code points outside plain ASCII the LCD can show: (unicode, character code).
_EXTRA = ((0xA5, 0x5C), (0x2192, 0x7E), (0x2190, 0x7F), (0xB0, 0xDF), (0x30FB, 0xA5), (0xB7, 0xA5),
          (0x2663, 0), (0x2666, 1), (0x2665, 2), (0x2660, 3))


def rom_code(ch):
    """ROM A00 code of one character; REPLACEMENT when the LCD cannot show it."""
    c = ord(ch)
    if 0x20 <= c <= 0x7D and c != 0x5C:
        return c
    for uni, code in _EXTRA:
        if uni == c:
            return code
    return REPLACEMENT


# The bytes that are their own ROM A00 code: 0x20..0x7D but for the backslash, 0x5C (the displays' most
# frequent first). A text's bytes all among them is data.strip(ROM) empty: one strip, in C, that returns the
# empty bytes constant (nothing made) when every byte is stripped. A regex search for a byte outside them
# (a compiled pattern in the heap) cost ~1.1 us a row of the result's pass in the VM, the strip ~0.7 (issue 14).
ROM = b" ETAORINSDLPBHUCMWGKFYVXJQZ0123456789=-:!\"#$%&'()*+,./;<>?@[]^_`abcdefghijklmnopqrstuvwxyz{|}"


def encode(text, data, row, cols):
    """text's ROM A00 codes into row[:cols], cut or padded with spaces, where a byte of data (text's
    UTF-8) is not its own code (show() copies a text whose every byte is, the usual case). Returns how
    many characters came from the text (the rest are the padding's spaces)."""
    n = len(data)
    if n == len(text):                          # ASCII: a byte is its character (no str per character)
        for c in range(cols):
            if c < n:
                ch = data[c]
                row[c] = ch if 0x20 <= ch <= 0x7D and ch != 0x5C else rom_code(text[c])
            else:
                row[c] = 0x20
        return n if n < cols else cols
    n = len(text)
    for c in range(cols):
        row[c] = rom_code(text[c]) if c < n else 0x20
    return n if n < cols else cols
