# The polled line reader: complete lines, overlong and stale partial lines as faults, bounded work per poll.
from firmware import faults
from firmware.compat import heap_lock, heap_unlock
from firmware.drivers.serial_line import SerialLine
from firmware.hardware import line_timeout_ms
from firmware.evidence import Evidence
from tests.firmware.expect import count_calls
from tests.firmware.fakes import FakeUART

_TIMEOUT = 50


def _line(max_len=16, timeout_ms=_TIMEOUT, budget=0):
    uart = FakeUART()
    return uart, SerialLine(uart, max_len, timeout_ms, budget)


def test_lines_with_cr_lf_or_either():
    uart, line = _line()
    uart.feed(b"Kh\r\nAd\n\n\r5c\r")
    assert line.poll(10) == b"Kh"
    assert line.poll(10) == b"Ad"
    assert line.poll(10) == b"5c"                 # empty lines between are skipped
    assert line.poll(10) is None and line.fault == 0


def test_truncated_line_is_its_own_fault_and_the_next_line_is_read():
    # Issue 8 item 10: "K", a pause, then "Ah\n" must not become one bad line "KAh".
    uart, line = _line()
    uart.feed(b"K")
    assert line.poll(10) is None and line.fault == 0
    waited = 0
    while line.fault == 0:
        assert line.poll(10) is None
        waited += 10
        assert waited <= _TIMEOUT, "partial line never timed out"
    assert waited == _TIMEOUT
    assert line.fault == faults.PARTIAL_LINE
    assert bytes(line.buf[:line.fault_len]) == b"K"           # the offending bytes, until the next poll
    assert line.partial == 1
    uart.feed(b"Ah\n")
    assert line.poll(10) == b"Ah" and line.fault == 0


def test_dropping_a_stale_line_and_keeping_its_bytes_allocate_nothing():
    # The fault path runs in the input pass with the heap locked on MicroPython (a real lock there).
    uart, line = _line()
    evidence = Evidence()
    uart.feed(b"Kh")
    line.poll(10)                                 # reading allocates in FakeUART only (not a board's UART)
    evidence.keep(b"warm")
    heap_lock()
    try:
        line.poll(_TIMEOUT)
        handle = evidence.keep(line.buf, 0, line.fault_len)
    finally:
        heap_unlock()
    assert line.fault == faults.PARTIAL_LINE and evidence.text(handle) == "Kh"


def test_bytes_already_waiting_are_read_before_the_timeout_is_judged():
    # A loop that stalled while the rest of the line arrived has not seen a pause on the wire.
    uart, line = _line()
    uart.feed(b"A")
    assert line.poll(10) is None
    uart.feed(b"h\n")
    assert line.poll(10 * _TIMEOUT) == b"Ah" and line.fault == 0


def test_quiet_time_between_lines_is_not_a_fault():
    uart, line = _line()
    for _ in range(20):
        assert line.poll(100) is None and line.fault == 0
    uart.feed(b"Ah\n")
    assert line.poll(100) == b"Ah"
    for _ in range(20):
        assert line.poll(100) is None and line.fault == 0


def test_no_timeout_waits_for_the_rest_of_a_typed_line():
    uart, line = _line(timeout_ms=0)               # the console: a person types slowly
    uart.feed(b"sta")
    for _ in range(100):
        assert line.poll(1000) is None and line.fault == 0
    uart.feed(b"tus\r\n")
    assert line.poll(1000) == b"status"
    uart.feed(b"help")
    assert line.poll() is None                     # no elapsed time given: never a timeout
    uart.feed(b"\n")
    assert line.poll() == b"help"


def test_overlong_line_is_a_fault_with_its_first_bytes_then_the_next_line_reads():
    uart, line = _line(max_len=8)
    uart.feed(b"0123456789abcdef\nAh\n")
    assert line.poll(10) is None
    assert line.fault == faults.LINE_TOO_LONG and line.overlong == 1
    assert bytes(line.buf[:line.fault_len]) == b"01234567"
    assert line.poll(10) == b"Ah" and line.fault == 0   # the rest of the long line was dropped
    uart.feed(b"01234567\n")
    assert line.poll(10) == b"01234567"           # exactly the buffer is not too long


def test_pause_inside_an_overlong_line_is_not_a_second_fault():
    uart, line = _line(max_len=8)
    uart.feed(b"0123456789")
    assert line.poll(10) is None and line.fault == faults.LINE_TOO_LONG
    for _ in range(10):
        assert line.poll(10) is None and line.fault == 0     # already reported: the pause just ends it
    uart.feed(b"Ah\n")
    assert line.poll(10) == b"Ah"
    assert line.overlong == 1 and line.partial == 0


def test_flood_without_line_end_is_read_in_bounded_steps():
    # Issue 8 item 11: `while uart.any()` on an endless stream starved the watchdog.
    uart, line = _line(max_len=16)
    assert line.budget == 32                      # default: two line buffers per poll
    flood = 2000
    uart.feed(b"K" * flood)
    assert line.poll(10) is None
    assert line.fault == faults.LINE_TOO_LONG
    assert uart.any() >= flood - line.budget      # the rest waits for the next pass
    polls = 1
    faults_seen = 1
    while uart.any():
        before = uart.any()
        assert line.poll(1) is None
        assert before - uart.any() <= line.budget
        faults_seen += line.fault != 0
        polls += 1
    assert polls >= flood // line.budget
    assert faults_seen == 1 and line.overlong == 1     # one long line, one fault
    uart.feed(b"\nAh\n")
    assert line.poll(1) == b"Ah"


def test_flood_of_short_lines_gives_one_line_per_poll():
    uart, line = _line(max_len=16, budget=8)
    uart.feed(b"3 4\n" * 50)
    for _ in range(50):
        assert line.poll(1) == b"3 4"
        assert line.fault == 0
    assert line.poll(1) is None and uart.any() == 0


def test_line_timeout_from_baudrate():
    assert line_timeout_ms(115200) == line_timeout_ms(9600) == 50     # the floor at ordinary rates
    assert line_timeout_ms(300) > 50                                  # a few character times when slow
    assert line_timeout_ms(300) >= 3 * 1000 * 10 // 300
    assert line_timeout_ms(1200) < line_timeout_ms(300)


def test_write_line_appends_cr_lf():
    uart, line = _line()
    line.write_line("ok")
    line.write_line(b"raw")
    assert bytes(uart.tx) == b"ok\r\nraw\r\n"


def test_a_frame_is_taken_from_the_uart_in_chunks_not_a_call_per_byte():
    # A readinto per byte was most of the cost of a shoe frame on the input pass; the bytes after a
    # line's end wait in the line's chunk for the next poll, as they waited in the UART.
    uart, line = _line(max_len=96)
    calls = count_calls(uart, "readinto")[0]
    uart.feed(b"S1 2A CARD Ah D*9F3B\nS1 2B CUT*1234\r\nS1 2C IN*ABCD")
    assert line.poll(10) == b"S1 2A CARD Ah D*9F3B"
    assert calls[0] == 1
    assert line.poll(10) == b"S1 2B CUT*1234"
    assert calls[0] == 2                          # the rest of the first chunk, then the next one
    assert line.poll(10) is None and line.fault == 0
    uart.feed(b"\n")
    assert line.poll(10) == b"S1 2C IN*ABCD" and calls[0] == 3
    assert line.poll(10) is None and uart.any() == 0


def test_a_uart_answering_fewer_bytes_or_none_is_read_on():
    # A USB console reads one byte a call; a PIO UART answers None when nothing is there after all.
    uart, line = _line(max_len=16)
    readinto = uart.readinto
    answers = []

    def stingy(buf, n=None):
        if answers and answers.pop(0) is None:
            return None
        return readinto(buf, 1)
    uart.readinto = stingy
    uart.feed(b"Ah\nKd\n")
    answers[:] = [None]
    assert line.poll(10) is None and line.fault == 0
    assert line.poll(10) == b"Ah" and line.poll(10) == b"Kd"


class _ByteAtATime:
    """SerialLine's outcomes as the byte-at-a-time reader had them (the model the chunked reader must
    match): lines, LINE_TOO_LONG faults with their bytes, budget per poll; no timeout (timeout_ms 0)."""

    def __init__(self, max_len, budget):
        self.max_len = max_len
        self.budget = budget
        self.buf = bytearray()
        self.discarding = False
        self.pending = bytearray()

    def poll(self):
        got = 0
        while got < self.budget and self.pending:
            ch = self.pending[0]
            self.pending = self.pending[1:]
            got += 1
            if ch in (10, 13):
                if self.discarding:
                    self.discarding = False
                    self.buf = bytearray()
                    continue
                if not self.buf:
                    continue
                line = bytes(self.buf)
                self.buf = bytearray()
                return ("line", line)
            if self.discarding:
                continue
            if len(self.buf) == self.max_len:
                self.discarding = True
                return ("fault", bytes(self.buf))
            self.buf.append(ch)
        return None


def test_lines_read_a_run_at_a_time_come_out_as_read_a_byte_at_a_time():
    # Line bytes are copied a run at a time (find() up to the line end, one slice store): every line,
    # overlong line, budget cut and chunk border must give the outcomes the byte-at-a-time reader gave.
    seed = 12345
    for trial in range(60):
        max_len = 4 + trial % 13
        budget = (0, 3, 7, 40)[trial % 4]
        uart, line = _line(max_len=max_len, timeout_ms=0, budget=budget)
        model = _ByteAtATime(max_len, budget if budget > 0 else 2 * max_len)
        stream = bytearray()
        for _ in range(40):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            r = seed >> 8
            if r % 5 == 0:
                stream.append(b"\r\n"[r % 2])
            else:
                stream.append(0x41 + r % 26)
        for start in range(0, len(stream), 9):
            uart.feed(stream[start:start + 9])
            model.pending.extend(stream[start:start + 9])
            for _ in range(6):
                got = line.poll(10)
                want = model.poll()
                if line.fault:
                    assert got is None and line.fault == faults.LINE_TOO_LONG
                    assert want == ("fault", bytes(line.buf[:line.fault_len])), (trial, start, want)
                elif got is not None:
                    assert want == ("line", got), (trial, start, want, got)
                else:
                    assert want is None, (trial, start, want)


def test_a_line_waiting_whole_asks_the_uart_how_much_is_waiting_once():
    # A frame arriving whole (the usual case): the idle check's uart.any() sizes the first chunk too (a
    # second any() was a call a frame for nothing; on a board a method call into the UART driver).
    uart, line = _line()
    asked = count_calls(uart, "any")[0]
    uart.feed(b"S1 2A CARD Ah D\n")
    assert line.poll(10) == b"S1 2A CARD Ah D"
    assert asked[0] == 1
    assert line.poll(10) is None and asked[0] == 2            # idle: one any(), nothing read
    uart.feed(b"K")                                           # a line begun: the loop asks the UART
    assert line.poll(10) is None
    uart.feed(b"h\n")
    assert line.poll(10) == b"Kh"
