# hand_value.py's showdown pair (prepare_board, best_value) in viper code, for a board (art. 10(1)).
#
# Same contract and the same values as hand_value.py's plain functions (read its header first); only
# the form differs. Viper keeps every rank mask, sum and value in a machine register (none is an
# object) and writes and reads the board's triples through a pointer, so best_value allocates nothing.
# On MicroPython's Unix port the 10-seat showdown takes ~1/17 of the bytecode's time and ~1/9 of
# hand_value.py compiled to native code (docs/performance-log.md, "The twenty-third round"). Every value
# fits 30 bits, so a board's 32-bit registers and its 31-bit small ints hold them as they are.
#
# Only a MicroPython with a native emitter for its CPU compiles this file (tools/build.py NATIVE_ONLY,
# as firmware/link/crc32_viper.py): hand_value.py imports it where firmware.compat.native_arch() says
# there is one, and keeps its own functions elsewhere (CPython, the simulator, the WebAssembly VM).
# The tests run it on the Unix port against the plain functions (tests/firmware/test_omaha_hand.py)
# and its logic on CPython with ptr32 stood in for (tests/host/test_hand_value_viper.py).
import micropython

# hand_value.BOARD_TRIPLES, flat (tests/host/test_hand_value_viper.py checks they agree).
_TRIPLES = (0, 1, 2, 0, 1, 3, 0, 1, 4, 0, 2, 3, 0, 2, 4, 0, 3, 4, 1, 2, 3, 1, 2, 4, 1, 3, 4, 2, 3, 4)
_FIELDS = const(4)         # per triple: rank bits OR, SUM, XOR, and its suit (0-3) or _MIXED
_PREPARED = const(40)      # 10 triples x _FIELDS
_PREPARED_BYTES = const(160)   # _PREPARED 32-bit words
_MIXED = const(5)          # a triple of mixed suits: never a hole pair's code (0-3, or 4 when mixed)


def prepare_board(board):
    """Five board cards -> the 10 triple summaries best_value() reads (40 32-bit ints, a bytearray of their 160
    bytes in the CPU's order), once per showdown. Each field is non-negative: a pointer's 32-bit load reads it
    the same on every CPU. A bytearray, whose len() is its bytes, so best_value() can tell that its pointer
    stays inside it."""
    out = bytearray(_PREPARED_BYTES)
    _fill(board, out)
    return out


@micropython.viper
def _fill(board, out):
    o = ptr32(out)
    k = 0
    while k < 10:
        a = int(board[int(_TRIPLES[3 * k])])
        b = int(board[int(_TRIPLES[3 * k + 1])])
        c = int(board[int(_TRIPLES[3 * k + 2])])
        if a < 0 or a > 51 or b < 0 or b > 51 or c < 0 or c > 51:
            raise ValueError("prepare_board: not a card")
        ba = 1 << (a >> 2)
        bb = 1 << (b >> 2)
        bc = 1 << (c >> 2)
        i = _FIELDS * k
        o[i] = ba | bb | bc
        o[i + 1] = ba + bb + bc
        o[i + 2] = ba ^ bb ^ bc
        if (a & 3) == (b & 3) and (b & 3) == (c & 3):
            o[i + 3] = a & 3
        else:
            o[i + 3] = _MIXED
        k += 1


@micropython.viper
def best_value(hole, prepared) -> int:
    """Four hole card ints + prepare_board() result -> the best hand value (hand_value.best_value's)."""
    # A pointer has no bounds: anything but prepare_board()'s 160 bytes (len() of a buffer of other items
    # counts items: one of 160 holds more bytes, never fewer), or a card outside 0-51, is refused before a
    # load (a game's cards were checked when dealt: this never fires in play).
    if int(len(prepared)) != _PREPARED_BYTES:
        raise ValueError("best_value: not a prepared board")
    p = ptr32(prepared)
    best = 0
    i = 0
    while i < 3:
        a = int(hole[i])
        if a < 0 or a > 51:
            raise ValueError("best_value: not a card")
        j = i + 1
        while j < 4:
            b = int(hole[j])
            if b < 0 or b > 51:
                raise ValueError("best_value: not a card")
            ba = 1 << (a >> 2)
            bb = 1 << (b >> 2)
            rb2 = ba | bb
            s2 = ba + bb
            x2 = ba ^ bb
            f2 = 4                                  # mixed suits: equals no triple's code
            if ((a ^ b) & 3) == 0:
                f2 = a & 3
            k = 0
            while k < _PREPARED:
                rb = rb2 | p[k]
                d = s2 + p[k + 1] - rb
                if d == 0:
                    # Five distinct ranks. A straight: five bits in a row (the lowest bit times 0b11111),
                    # or the wheel, A-2-3-4-5 (0x100F), valued below the six-high straight.
                    straight = rb == (rb & (0 - rb)) * 31 or rb == 0x100F
                    if f2 == p[k + 3]:
                        if straight:
                            if rb == 0x100F:
                                v = 0x2000000F
                            else:
                                v = 0x20000000 | rb
                        else:
                            v = 0x14000000 | rb
                    elif straight:
                        if rb == 0x100F:
                            v = 0x1000000F
                        else:
                            v = 0x10000000 | rb
                    else:
                        v = rb
                else:
                    x = x2 ^ p[k + 2]
                    e = rb ^ x
                    if d == e:
                        if e & (e - 1):
                            v = 0x8000000 | (e << 13) | x
                        else:
                            v = 0x4000000 | (e << 13) | x
                    elif x == rb:
                        h = d >> 1
                        v = 0xC000000 | (h << 13) | (rb ^ h)
                    else:
                        h = (d - e) >> 1
                        if h == x:
                            v = 0x18000000 | (h << 13) | e
                        else:
                            v = 0x1C000000 | (h << 13) | x
                if v > best:
                    best = v
                k += _FIELDS
            j += 1
        i += 1
    return best
