# machine.UART and machine.I2C, simulated: handles onto the installed Hardware's UartState (its
# pty/loopback endpoint) and the devices attached to an I2C bus. They never wait (timeouts are not
# simulated): reads return what has already arrived. hostsim/machine.py exports them.
import errno

from hostsim import hardware as _hw
from hostsim.machine_pin import _UNSET, _pin_id


def _buffer(buf):
    if isinstance(buf, str):
        return buf.encode()
    return bytes(buf)


class UART:
    """UART(id, baudrate=..., tx=, rx=, timeout=0, rxbuf=...): never blocks; reads give what has arrived."""

    INV_TX = 1
    INV_RX = 2
    RTS = 1
    CTS = 2

    def __init__(self, id, baudrate=_UNSET, bits=8, parity=None, stop=1, **kwargs):
        self._state = _hw.current().uart(id)
        if baudrate is _UNSET and not self._state.configured:
            baudrate = 115200
        self.init(baudrate, bits, parity, stop, **kwargs)

    def init(self, baudrate=_UNSET, bits=8, parity=None, stop=1, tx=None, rx=None, timeout=0,
             timeout_char=0, rxbuf=None, txbuf=None, flow=0, invert=0):
        st = self._state
        if baudrate is not _UNSET:
            if not isinstance(baudrate, int) or baudrate <= 0:
                raise ValueError("invalid baudrate %r" % (baudrate,))
            st.baudrate = baudrate
        if bits not in (5, 6, 7, 8, 9):
            raise ValueError("invalid bits %r" % (bits,))
        if parity not in (None, 0, 1):
            raise ValueError("invalid parity %r" % (parity,))
        if stop not in (1, 2):
            raise ValueError("invalid stop bits %r" % (stop,))
        hw = _hw.current()
        if tx is not None:
            st.tx = hw.pin(_pin_id(tx)).id
        if rx is not None:
            st.rx = hw.pin(_pin_id(rx)).id
        if rxbuf is not None:
            if rxbuf < 1:
                raise ValueError("rxbuf must be >= 1")
            st.rxbuf = rxbuf
        self.timeout = timeout
        st.configured = True

    def deinit(self):
        self._state.configured = False

    def any(self):
        return self._state.pull()

    def read(self, nbytes=None):
        st = self._state
        st.pull()
        if not st.rx_data:
            return None
        n = len(st.rx_data) if nbytes is None else min(nbytes, len(st.rx_data))
        out = bytes(st.rx_data[:n])
        del st.rx_data[:n]
        return out

    def readinto(self, buf, nbytes=None):
        st = self._state
        st.pull()
        if not st.rx_data:
            return None
        n = len(buf) if nbytes is None else min(nbytes, len(buf))
        n = min(n, len(st.rx_data))
        buf[:n] = st.rx_data[:n]
        del st.rx_data[:n]
        return n

    def readline(self):
        st = self._state
        st.pull()
        if not st.rx_data:
            return None
        end = st.rx_data.find(b"\n")
        n = len(st.rx_data) if end < 0 else end + 1
        out = bytes(st.rx_data[:n])
        del st.rx_data[:n]
        return out

    def write(self, buf):
        st = self._state
        data = _buffer(buf)
        st.endpoint.fw_write(data)
        st.tx_count += len(data)
        return len(data)

    def flush(self):
        pass

    def txdone(self):
        return True

    def sendbreak(self):
        pass

    def __repr__(self):
        st = self._state
        return "UART(%d, baudrate=%d, tx=%s, rx=%s)" % (st.id, st.baudrate, st.tx, st.rx)


def _no_device(addr):
    return OSError(errno.ENODEV, "ENODEV: no I2C device at address 0x%02x" % addr)


class I2C:
    """I2C(id, scl=, sda=, freq=): transactions go to devices attached with hardware.attach_i2c(bus, addr, dev)."""

    def __init__(self, id, scl=None, sda=None, freq=400000, timeout=50000):
        hw = _hw.current()
        hw.check_i2c(id)
        self._id = id
        self.init(scl=scl, sda=sda, freq=freq)
        hw.i2c_buses[id] = self._config

    def init(self, scl=None, sda=None, freq=400000, timeout=50000):
        hw = _hw.current()
        if not isinstance(freq, int) or freq <= 0:
            raise ValueError("invalid freq %r" % (freq,))
        self._config = {"scl": hw.pin(_pin_id(scl)).id if scl is not None else None,
                        "sda": hw.pin(_pin_id(sda)).id if sda is not None else None,
                        "freq": freq}

    def _device(self, addr):
        dev = _hw.current().i2c_device(self._id, addr)
        if dev is None:
            raise _no_device(addr)
        return dev

    def scan(self):
        return sorted(addr for bus, addr in _hw.current().i2c_devices if bus == self._id)

    def writeto(self, addr, buf, stop=True):
        data = _buffer(buf)
        self._device(addr).i2c_write(data)
        return len(data)

    def writevto(self, addr, vector, stop=True):
        return self.writeto(addr, b"".join(_buffer(b) for b in vector), stop)

    def readfrom(self, addr, nbytes, stop=True):
        return bytes(self._device(addr).i2c_read(nbytes))

    def readfrom_into(self, addr, buf, stop=True):
        data = self.readfrom(addr, len(buf), stop)
        buf[:len(data)] = data

    @staticmethod
    def _memaddr(memaddr, addrsize):
        return memaddr.to_bytes(addrsize // 8, "big")

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        self._device(addr).i2c_write(self._memaddr(memaddr, addrsize) + _buffer(buf))

    def readfrom_mem(self, addr, memaddr, nbytes, addrsize=8):
        dev = self._device(addr)
        dev.i2c_write(self._memaddr(memaddr, addrsize))
        return bytes(dev.i2c_read(nbytes))

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        data = self.readfrom_mem(addr, memaddr, len(buf), addrsize)
        buf[:len(data)] = data

    def __repr__(self):
        return "I2C(%d, scl=%s, sda=%s, freq=%d)" % (self._id, self._config["scl"], self._config["sda"],
                                                     self._config["freq"])
