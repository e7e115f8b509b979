# Exceptions the firmware raises for bad input; each carries a clear message.
#
# Game-integrity checks raise these, never `assert` (asserts vanish at -O1).


class GameError(ValueError):
    """Base: an input the rules or the hardware contract do not allow."""


class CardCodeError(GameError):
    """A card code that is not rank 23456789TJQKA + suit cdhs."""


class RuleError(GameError):
    """An action the regulation forbids (out-of-order card, illegal bet...)."""


class IntegrityError(GameError):
    """A card or roll the equipment cannot have produced: an alarm, never a result."""


class SettingsError(GameError):
    """A table setting or board description outside what is allowed."""


class RestoreError(IntegrityError):
    """A snapshot refused whole: malformed or corrupted, taken at a table with other settings, restored
    into a controller that already plays, or asked for where none is complete (not at a boundary)."""
