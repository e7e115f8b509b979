"""hostsim/flash.py: the simulated flash counts writes and cuts the power where it is told (issue 12)."""
import os

import pytest

from hostsim.flash import FlashFS, PowerCut


def _content(name):
    with open(name, "rb") as f:
        return f.read()


def test_writes_counted_and_the_cut_lands_after_the_nth():
    with FlashFS(cut_after_writes=2) as flash:
        name = os.path.join(flash.root, "f")
        with flash.open(name, "wb") as f:
            f.write(b"one")
            f.write(b"two")
            with pytest.raises(PowerCut, match="flash write 3"):
                f.write(b"three")
        assert _content(name) == b"onetwo" and (flash.writes, flash.bytes_written) == (2, 6)
        with pytest.raises(PowerCut):                   # no power: nothing works until the reboot
            flash.stat(name)
        assert flash.rebooted().stat(name).st_size == 6


def test_torn_write_leaves_half_its_bytes():
    with FlashFS(cut_after_writes=1, torn=True) as flash:
        name = os.path.join(flash.root, "f")
        with flash.open(name, "ab") as f:
            f.write(b"whole")
            with pytest.raises(PowerCut, match="torn"):
                f.write(b"12345678")
        assert _content(name) == b"whole1234"


def test_remove_and_rename_are_flash_writes_never_half_done():
    with FlashFS(cut_after_writes=2, torn=True) as flash:
        a, b = os.path.join(flash.root, "a"), os.path.join(flash.root, "b")
        with flash.open(a, "wb") as f:
            f.write(b"x")
        flash.rename(a, b)
        with pytest.raises(PowerCut):
            flash.remove(b)
        assert _content(b) == b"x" and flash.writes == 2


def test_files_outside_the_flash_refused():
    with FlashFS() as flash:
        with pytest.raises(ValueError, match="outside"):
            flash.open(os.path.join(flash.root, "..", "elsewhere"), "wb")
    assert not os.path.exists(flash.root)              # the temporary flash is gone afterwards


def test_an_exception_inside_the_flash_block_goes_on_out_and_the_flash_is_still_cleaned_up():
    # `with FlashFS() as flash:` wraps the power-cut tests' assertions: swallowing what is raised inside (an
    # __exit__ answering True) would let every failing assertion there pass.
    with pytest.raises(AssertionError, match="inside"):
        with FlashFS() as flash:
            root = flash.root
            raise AssertionError("inside")
    assert not os.path.exists(root)
