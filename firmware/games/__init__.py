# Game rule engines: pure logic, no I/O, no clocks.
