# Omaha best hand (art. 10(1)): exactly two of the four hole cards with exactly three of the five board cards.
#
# 6 hole pairs x 10 board triples = 60 five-card hands. The showdown path
# (prepare_board + best_value) sums each triple's and each pair's rank bits
# once and runs the evaluator's arithmetic inline, so a 10-seat showdown is 600
# cheap combinations, no tables. The values are poker_eval.evaluate()'s
# (firmware/games/omaha/poker_eval.py explains them); the counts come from the
# OR as well as the sum and XOR of the rank bits (b_i = 1 << rank of card i):
#   or  = b0|b1|b2|b3|b4          ranks present
#   d   = (b0+b1+b2+b3+b4) - or   sum over ranks of (count - 1) * bit
#   x   = b0^b1^b2^b3^b4          ranks present an odd number of times
#   e   = or ^ x                  ranks present an even number of times (2 or 4)
#   d == 0            five distinct ranks: straight/flush/high card, value by `or`
#   d == e            one pair (e is one bit) or two pair (e is two bits), kickers = x
#   x == or, d != 0   three of a kind (3,1,1): e == 0, trips = d >> 1
#   otherwise         (d - e) >> 1 is the trips of a full house (equals x) or the
#                     quads of four of a kind (equals e); the other rank is or ^ it.
# (evaluate() tells them apart by the sum and XOR alone, fewer steps for one hand; in this loop,
# over sums kept per pair and per triple, that form measured no faster on the VM and slower as
# native code: issue 14, docs/performance-log.md.)
#
# Where MicroPython runs native code (a board; the Unix port), prepare_board and best_value are
# hand_value_viper's, the same arithmetic in viper code (~1/17 of this bytecode's time there); this
# file's are plain_prepare_board and plain_best_value, the ones CPython, the simulator and the
# WebAssembly VM run. The engine only ever pairs the two of one kind.
from firmware.cards import check, name
from firmware.compat import native_arch
from firmware.errors import CardCodeError
from firmware.games.omaha.poker_eval import RANK_BIT, STRAIGHTS, evaluate

# copies of firmware.games.omaha.poker_eval (tests/host/test_const_copies.py)
_WHEEL = const(4111)

HOLE_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
BOARD_TRIPLES = (
    (0, 1, 2), (0, 1, 3), (0, 1, 4), (0, 2, 3), (0, 2, 4),
    (0, 3, 4), (1, 2, 3), (1, 2, 4), (1, 3, 4), (2, 3, 4),
)


def check_cards(hole, board):
    """Validate 4 hole + 5 board card ints, all distinct (CardCodeError otherwise)."""
    if not isinstance(hole, (list, tuple)) or len(hole) != 4:
        raise CardCodeError("an Omaha hand has exactly 4 hole cards (art. 6(1))")
    if not isinstance(board, (list, tuple)) or len(board) != 5:
        raise CardCodeError("the board has exactly 5 cards (arts. 7-8)")
    seen = []
    for c in list(hole) + list(board):
        check(c)
        if c in seen:
            raise CardCodeError("card %s appears twice" % name(c))
        seen.append(c)


def best_hand(hole, board):
    """-> (value, five cards: the 2 hole then the 3 board cards of the best hand).

    Art. 10(1): exactly two hole cards and exactly three board cards; among
    equal-valued choices the first found (pair order, then triple order) is shown.
    """
    check_cards(hole, board)
    best = -1
    best_cards = None
    for i, j in HOLE_PAIRS:
        for a, b, c in BOARD_TRIPLES:
            five = (hole[i], hole[j], board[a], board[b], board[c])
            value = evaluate(five)
            if value > best:
                best = value
                best_cards = five
    return best, best_cards


def _summary(cards):
    # (rank bits OR, rank bits SUM, rank bits XOR, suit if all one suit else -1)
    rb = 0
    total = 0
    x = 0
    suit = cards[0] & 3
    for c in cards:
        bit = RANK_BIT[c]
        rb |= bit
        total += bit
        x ^= bit
        if c & 3 != suit:
            suit = -1
    return rb, total, x, suit


def plain_prepare_board(board):
    """Five board cards -> the 10 triple summaries best_value() needs (once per showdown)."""
    out = []
    for a, b, c in BOARD_TRIPLES:
        rb, total, x, suit = _summary((board[a], board[b], board[c]))
        # a triple of mixed suits gets -2 so it never equals a pair's code
        out.append((rb, total, x, suit if suit >= 0 else -2))
    return tuple(out)


def plain_best_value(hole, prepared, _straights=STRAIGHTS, _bit=RANK_BIT):
    """Four hole card ints + plain_prepare_board() result -> the best hand value (art. 10(1))."""
    best = 0
    for i, j in HOLE_PAIRS:
        a = hole[i]
        b = hole[j]
        ba = _bit[a]
        bb = _bit[b]
        rb2 = ba | bb
        s2 = ba + bb
        x2 = ba ^ bb
        f2 = a & 3 if (a ^ b) & 3 == 0 else -1  # the pair's suit, -1 if mixed
        for rb3, s3, x3, f3 in prepared:
            rb = rb2 | rb3
            d = s2 + s3 - rb
            if not d:
                if f2 == f3:
                    if rb in _straights:
                        v = 0x20000000 | rb if rb != _WHEEL else 0x2000000F
                    else:
                        v = 0x14000000 | rb
                elif rb in _straights:
                    v = 0x10000000 | rb if rb != _WHEEL else 0x1000000F
                else:
                    v = rb
            else:
                x = x2 ^ x3
                e = rb ^ x
                if d == e:
                    if e & (e - 1):
                        v = 0x8000000 | e << 13 | x
                    else:
                        v = 0x4000000 | e << 13 | x
                elif x == rb:
                    h = d >> 1
                    v = 0xC000000 | h << 13 | (rb ^ h)
                else:
                    h = (d - e) >> 1
                    if h == x:
                        v = 0x18000000 | h << 13 | e
                    else:
                        v = 0x1C000000 | h << 13 | x
            if v > best:
                best = v
    return best


def _viper():
    """hand_value_viper where this MicroPython runs native code, else None (as firmware/link/crc32.py's
    _native: a port without a native emitter is not even tried, its failed compile would keep heap)."""
    if not native_arch():
        return None
    try:
        from firmware.games.omaha import hand_value_viper
    except (ImportError, SyntaxError, ValueError, MemoryError):
        return None              # left out of the build, an .mpy of another CPU, no room: the plain pair
    return hand_value_viper


_VIPER = _viper()
VIPER = _VIPER is not None       # True on a board: the showdown's pair below is viper code
if VIPER:
    prepare_board = _VIPER.prepare_board
    best_value = _VIPER.best_value
else:
    prepare_board = plain_prepare_board
    best_value = plain_best_value
