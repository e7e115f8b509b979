# A host-link frame as the host's side reads it (tools/host_client.py, tools/decode.py) and the tests: the decoder,
# firmware/link/frame.py's Frame, with its TYPE and stamps as values. A board never imports this module: its Sender
# compares the TYPE in place (Frame.type_is) and reads only a payload (Frame.payload, payload_uint), so these
# readers are no part of the heap a table keeps (as firmware/link/ram_store.py, the tests' and the tools' store).
from firmware.link.frame import Frame


class HostFrame(Frame):
    """Frame, and what the host reads of a decoded one: type_name(), uptime_ms(), host_ms()."""

    def type_name(self):
        return bytes(self.line[self.type_start:self.type_end]).decode()

    def uptime_ms(self):
        """The board's uptime in the stamp (ms)."""
        return int(self._stamp()[0])

    def host_ms(self):
        """The host's time in the stamp, or -1 when the board had none yet."""
        stamp = self._stamp()
        return int(stamp[1]) if len(stamp) > 1 else -1

    def _stamp(self):
        """The stamp's digits (decode() checked them: uptime[@host]), split at its "@"."""
        return bytes(self.line[self.stamp_start:self.stamp_end]).decode().split("@")
