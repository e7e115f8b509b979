# The console's line editor: what picocom and screen send, echoed as a terminal expects.
from firmware.console import editor as ed
from tests.firmware.fakes import FakeUART


def _editor(max_len=16, budget=0):
    uart = FakeUART()
    return ed.LineEditor(uart, max_len, budget), uart


def _feed(editor, uart, data):
    """Feed bytes, poll until they are all read; [(outcome, line)] of the outcomes that were not NOTHING."""
    uart.feed(data)
    seen = []
    while uart.any():
        outcome = editor.poll()
        if outcome != ed.NOTHING:
            seen.append((outcome, editor.line if outcome == ed.LINE else b""))
    return seen


def test_typed_characters_are_echoed_and_cr_ends_the_line():
    editor, uart = _editor()
    assert _feed(editor, uart, b"status\r") == [(ed.LINE, b"status")]
    assert bytes(uart.tx) == b"status\r\n"


def test_lf_and_crlf_each_end_one_line():
    editor, uart = _editor()
    assert _feed(editor, uart, b"a\r\nb\nc\r") == [(ed.LINE, b"a"), (ed.LINE, b"b"), (ed.LINE, b"c")]
    assert _feed(editor, uart, b"\r\n") == [(ed.LINE, b"")]        # an empty line: a new prompt


def test_backspace_and_del_erase_one_character():
    editor, uart = _editor()
    assert _feed(editor, uart, b"helq\x7fp\x08p\r") == [(ed.LINE, b"help")]
    assert bytes(uart.tx) == b"helq\b \bp\b \bp\r\n"


def test_backspace_on_an_empty_line_echoes_nothing():
    editor, uart = _editor()
    assert _feed(editor, uart, b"\x7f\x08\x7fx\r") == [(ed.LINE, b"x")]
    assert bytes(uart.tx) == b"x\r\n"


def test_ctrl_c_cancels_the_line():
    editor, uart = _editor()
    assert _feed(editor, uart, b"lamp al\x03") == [(ed.CANCELLED, b"")]
    assert bytes(uart.tx).endswith(b"lamp al^C\r\n")
    assert _feed(editor, uart, b"zones\r") == [(ed.LINE, b"zones")]      # nothing of the cancelled line


def test_control_and_non_ascii_bytes_are_ignored_and_counted():
    editor, uart = _editor()
    assert _feed(editor, uart, b"v\x00e\x07r\x09\xffs\r") == [(ed.LINE, b"vers")]
    assert editor.ignored == 4
    assert bytes(uart.tx) == b"vers\r\n"


def test_arrow_keys_and_escape_sequences_are_skipped_whole():
    editor, uart = _editor()
    assert _feed(editor, uart, b"ti\x1b[Am\x1b[1;5De\x1bO\r") == [(ed.LINE, b"time")]
    # A CSI sequence ends at its first byte 0x40..0x7E: "@" (ICH) and "~" (Delete: ESC [ 3 ~) end it, the next
    # letter is typed (a mutant that took "@" for a parameter byte lived: it ate the "s")
    assert _feed(editor, uart, b"\x1b[@st\x1b[3~atus\r") == [(ed.LINE, b"status")]


def test_function_keys_and_application_mode_arrows_are_skipped_whole():
    # ESC O X: F1-F4 (xterm, picocom, screen) and the arrows of a terminal in application cursor mode
    # (tmux, vim's terminal). Before, ESC O was taken for a whole sequence and X typed: F1 gave "P".
    editor, uart = _editor()
    assert _feed(editor, uart, b"\x1bOPst\x1bOAat\x1bOSus\r") == [(ed.LINE, b"status")]
    assert bytes(uart.tx) == b"status\r\n"


def test_a_control_byte_ends_an_escape_sequence_and_counts_as_typed():
    # The Esc key alone, then Enter: the line ends (before, the CR was swallowed as ESC's second byte);
    # Ctrl-C after ESC [ still cancels; ESC ESC [ A (Alt-Up) is skipped whole.
    editor, uart = _editor()
    assert _feed(editor, uart, b"time\x1b\r") == [(ed.LINE, b"time")]
    assert _feed(editor, uart, b"lamp\x1b[1\x03") == [(ed.CANCELLED, b"")]
    assert _feed(editor, uart, b"zo\x1b\x1b[Anes\r") == [(ed.LINE, b"zones")]


def test_secret_mode_echoes_stars():
    editor, uart = _editor()
    editor.secret = True
    assert _feed(editor, uart, b"1234\x7f5\r") == [(ed.LINE, b"1235")]
    assert bytes(uart.tx) == b"****\b \b*\r\n"


def test_a_line_longer_than_the_buffer_is_dropped_whole():
    editor, uart = _editor(max_len=8)
    assert _feed(editor, uart, b"0123456789abc\x7f\x7f\x7f\r") == [(ed.TOO_LONG, b"")]
    assert editor.overlong == 1
    assert _feed(editor, uart, b"version\r") == [(ed.LINE, b"version")]     # the next line is whole


def test_poll_reads_a_bounded_number_of_bytes_and_one_line():
    editor, uart = _editor(max_len=8, budget=4)
    uart.feed(b"abcdefg\r")
    assert editor.poll() == ed.NOTHING and editor.received == 4 and uart.any() == 4
    assert editor.poll() == ed.LINE and editor.line == b"abcdefg"
    uart.feed(b"a\rb\r")
    assert editor.poll() == ed.LINE and editor.line == b"a" and uart.any() == 2    # the next waits


def test_retype_shows_the_line_again_masked_in_secret_mode():
    editor, uart = _editor()
    _feed(editor, uart, b"sta")
    uart.tx = bytearray()
    editor.retype()
    assert bytes(uart.tx) == b"sta"
    editor.secret = True
    uart.tx = bytearray()
    editor.retype()
    assert bytes(uart.tx) == b"***"
