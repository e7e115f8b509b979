# Evidence store: bounded, escaped, allocation-free keep(), overwritten slots say so.
from firmware.compat import IS_MICROPYTHON, heap_lock, heap_unlock
from firmware.evidence import Evidence


def test_text_escapes_non_printable_and_backslash():
    ev = Evidence()
    h = ev.keep(b"K\xff\\\n")
    assert ev.text(h) == "K\\xff\\x5c\\x0a"
    h = ev.keep(b" ~\x7f\x1f")                       # the printable run ends at ~: DEL and US are escaped
    assert ev.text(h) == " ~\\x7f\\x1f"


def test_slice_and_no_evidence():
    ev = Evidence()
    assert ev.text(0) == ""
    h = ev.keep(b"xxAhyy", 2, 4)
    assert ev.text(h) == "Ah"


def test_into_puts_the_text_where_there_is_evidence_and_no_key_where_there_is_none():
    ev = Evidence()
    h = ev.keep(b"")                      # evidence of an empty line: "" is what came
    assert ev.into({"fault": "x"}, "bytes", h) == {"fault": "x", "bytes": ""}
    assert ev.into({"fault": "x"}, "bytes", ev.keep(b"K?")) == {"fault": "x", "bytes": "K?"}
    assert ev.into({"fault": "x"}, "bytes", 0) == {"fault": "x"}       # none kept: never ""


def test_bounded_with_original_length():
    ev = Evidence(slots=2, size=4)
    h = ev.keep(b"abcdefgh")
    assert ev.text(h) == "abcd...(8 bytes)"


def test_overwritten_slot_is_not_shown_as_other_bytes():
    ev = Evidence(slots=2, size=8)
    first = ev.keep(b"one")
    ev.keep(b"two")
    third = ev.keep(b"three")          # takes the first one's slot
    assert ev.text(first) == "(overwritten)"
    assert ev.text(third) == "three"


def test_keep_allocates_nothing():
    ev = Evidence()
    data = bytearray(b"garbage line")
    ev.keep(data)                       # warm up
    heap_lock()
    try:
        h = ev.keep(data, 0, 7)
    finally:
        heap_unlock()
    assert ev.text(h) == "garbage"
    if IS_MICROPYTHON:
        heap_lock()
        try:
            failed = False
            try:
                bytearray(4)
            except MemoryError:
                failed = True
        finally:
            heap_unlock()
        assert failed                   # the lock really catches an allocation


def test_the_slots_lie_side_by_side_in_one_buffer_and_keep_apart():
    # One bytearray for every slot (a bytearray a slot kept 20 bytes more each: docs/performance-log.md, "Memory
    # kept"): a line as long as a slot or longer fills its own slot only, the first slot's and the last's too.
    ev = Evidence(slots=3, size=4)
    assert len(ev._buf) == 12 and not hasattr(ev, "_bufs")
    handles = [ev.keep(b"abcdefgh"), ev.keep(b"WXYZ"), ev.keep(b"xxk", 2), ev.keep(b"-1234567-", 1, 8)]
    assert ev.text(handles[0]) == "(overwritten)"             # the fourth took its slot
    assert [ev.text(h) for h in handles[1:]] == ["WXYZ", "k", "1234...(7 bytes)"]
    assert [ev.raw(h) for h in handles[1:]] == [(b"WXYZ", 4), (b"k", 1), (b"1234", 7)]
    assert ev.text(ev.keep_raw(b"1234", 7)) == "1234...(7 bytes)"
