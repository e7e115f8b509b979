"""Shared by the engine property tests: arbitrary JSON-ish values, deep state snapshots,
and a call that lets only GameError subclasses out (issue 8: bad input gets a clear error,
a defined state, never a crash or a wrong result)."""
from hypothesis import strategies as st

from firmware.errors import GameError

# Values next to the valid ones, where type confusion hides: 3.0 for 3, True for 1, "8" for 8.
NEAR_VALID = st.sampled_from([0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 51, 52, -1, 1.0, 2.0, 3.0, 4.0, 0.0, -0.0,
                              True, False, None, "", "1", "A", "B", "Z", "8", "pot_limit", "no_limit",
                              "croupier", "button", "player", "banker", "tie", "fold", "call", "check",
                              "bet", "raise", "misdeal", "hard", "pass", 2 ** 40, float("inf"), float("nan")])

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=6), NEAR_VALID)

JSON = st.recursive(_SCALARS,
                    lambda inner: st.one_of(st.lists(inner, max_size=6),
                                            st.tuples(inner, inner),
                                            st.dictionaries(st.text(max_size=4), inner, max_size=4)),
                    max_leaves=12)


def near(value):
    """Values a careless reader could take for `value`: 3 -> 3.0, True, "3"; a list with
    one element made near; a string in another case."""
    if isinstance(value, bool):
        return [int(value), str(value).lower(), None]
    if isinstance(value, int):
        return [float(value), str(value), value == 1, value + 0.5, -value]
    if isinstance(value, str):
        return [value.upper(), value.title(), " " + value, value.encode()]
    if isinstance(value, (list, tuple)) and value:
        out = []
        for i, v in enumerate(value):
            for n in near(v)[:2]:
                out.append(list(value[:i]) + [n] + list(value[i + 1:]))
        return out + [tuple(value), list(value)[:-1]]
    return [None]


def anything_or(*values):
    """Strategy: one of the given values, one near it (3.0 for 3), or anything."""
    nearby = [n for v in values for n in near(v)]
    return st.one_of(st.sampled_from(values), st.sampled_from(nearby) if nearby else NEAR_VALID, JSON)


def corrupted(good, drop=True):
    """Strategy: the dict `good` with up to two values replaced (often by a near-valid
    one); with drop, sometimes one key dropped or an unknown one added."""
    keys = sorted(good)

    @st.composite
    def build(draw):
        out = dict(good)
        for key in draw(st.lists(st.sampled_from(keys), max_size=2, unique=True)):
            out[key] = draw(anything_or(good[key]))
        if not drop:
            return out
        for key in draw(st.lists(st.sampled_from(keys), max_size=1)):
            del out[key]
        if draw(st.integers(0, 9)) == 0:
            out[draw(st.text(max_size=5))] = draw(JSON)
        return out

    return build()


def snapshot(obj, depth=0):
    """A comparable deep copy of an engine object's state (objects by their attributes)."""
    if depth > 12:
        raise AssertionError("snapshot too deep: a cycle?")
    if isinstance(obj, (bytes, bytearray)):
        return ("bytes", bytes(obj))
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, tuple(snapshot(x, depth + 1) for x in obj))
    if isinstance(obj, dict):
        return ("dict", tuple(sorted((repr(k), snapshot(v, depth + 1)) for k, v in obj.items())))
    if hasattr(obj, "__dict__"):
        return (type(obj).__name__, tuple(sorted((k, snapshot(v, depth + 1)) for k, v in vars(obj).items())))
    return (type(obj).__name__, repr(obj))


def call(func, *args, **kwargs):
    """-> (True, result) or (False, the GameError). Any other exception fails the test."""
    try:
        return True, func(*args, **kwargs)
    except GameError as exc:
        return False, exc


def refused_unchanged(obj, func, *args, **kwargs):
    """Call a method of obj; on a refusal (a GameError) obj must be exactly as before.
    -> (ok, result or error)."""
    before = snapshot(obj)
    ok, out = call(func, *args, **kwargs)
    if not ok:
        assert snapshot(obj) == before, "state changed by a refused call: %r" % (out,)
    return ok, out


def is_int(v):
    return type(v) is int
