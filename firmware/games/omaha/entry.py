# The dealer's keypad entry: [number] COMMAND [number] ENTER (docs/omaha.md, "The dealer keypad").
#
# Pure and allocation-free per key: small ints only. The number before the
# command is a seat, the one after it an amount; a second command key
# replaces the first (its amount goes with it); CLEAR empties the entry.
# Numbers are bounded (MAX_DIGITS), so an amount is always a small int.

# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_K_ALLIN = const(19)
_K_CLEAR = const(20)
_K_ENTER = const(21)
_K_NEW = const(10)
_K_NONE = const(255)

# The legends of keys K_NEW .. K_ENTER (codes.K_*; index: code - K_NEW); a command's word in reports.
KEY_WORDS = ("new", "button", "seat", "stack", "fold", "check", "call", "bet", "raise", "allin", "clear", "enter")

MAX_NUMBER = const(9999999)   # the largest stack a seat is given (keyed STACK, the host's) and big blind
# Digits a number may have: 9 (999,999,999, a small int on every port) keys any amount a table can hold. A
# payout carries over, so one seat may come to hold every stack of a hand: up to 11 x MAX_NUMBER (8 digits).
MAX_DIGITS = const(9)
NO_NUMBER = const(-1)

# What a key did (Entry.press's return).
EDITED = const(0)         # the entry changed: echo it
ENTERED = const(1)        # ENTER: apply the entry (then clear it)
OVERFLOW = const(2)       # a digit beyond MAX_DIGITS: refused, the entry is emptied
IGNORED = const(3)        # no key there

_DIGITS = "0123456789"


def key_code(legend):
    """A key's legend ("7", "raise", "" for no key) -> its code (K_NONE when unknown)."""
    if len(legend) == 1 and legend in _DIGITS:
        return _DIGITS.index(legend)
    for i in range(len(KEY_WORDS)):
        if KEY_WORDS[i] == legend:
            return _K_NEW + i
    return _K_NONE


def command_word(command):
    """A command code -> its word in reports ("raise", "allin", ...), None when none was keyed."""
    if _K_NEW <= command <= _K_ALLIN:
        return KEY_WORDS[command - _K_NEW]
    return None


def is_action(command):
    """FOLD .. ALLIN: a betting action (the others manage the table between hands)."""
    return _K_NEW + 4 <= command <= _K_ALLIN


class Entry:
    def __init__(self):
        self.seat = NO_NUMBER      # the number keyed before the command
        self.command = _K_NONE
        self.amount = NO_NUMBER    # the number keyed after it
        self._digits = 0           # digits of the number being keyed
        self.keyed = False         # any key since the entry was last emptied

    def clear(self):
        self.seat = NO_NUMBER
        self.command = _K_NONE
        self.amount = NO_NUMBER
        self._digits = 0
        self.keyed = False

    def press(self, code):
        """One key (its code) -> EDITED, ENTERED, OVERFLOW or IGNORED."""
        if code == _K_NONE:
            return IGNORED
        if code == _K_ENTER:
            return ENTERED
        if code == _K_CLEAR:
            self.clear()
            return EDITED
        self.keyed = True
        if code < _K_NEW:
            return self._digit(code)
        self.command = code          # a second command replaces the first, and its amount goes
        self.amount = NO_NUMBER
        self._digits = 0
        return EDITED

    def _digit(self, d):
        if self._digits >= MAX_DIGITS:
            return OVERFLOW
        self._digits += 1
        if self.command == _K_NONE:
            self.seat = d if self.seat == NO_NUMBER else self.seat * 10 + d
        else:
            self.amount = d if self.amount == NO_NUMBER else self.amount * 10 + d
        return EDITED

    def echo(self):
        """What the dealer display shows as it is keyed: "> 4 RAISE 30" (allocates: display task only)."""
        text = ">"
        if self.seat != NO_NUMBER:
            text += " %d" % self.seat
        word = command_word(self.command)
        if word is not None:
            text += " " + word.upper()
        if self.amount != NO_NUMBER:
            text += " %d" % self.amount
        return text
