"""A firmware module takes another module's integer codes as private const() copies, and each copy agrees.

Why copies: MicroPython's const() is per module. `from firmware.events import CARD` puts CARD in the
importing module's globals dict: a slot in the heap for as long as the board runs, and a dict lookup each
time the code reads it. `_CARD = const(3)` costs no slot and is compiled in as the number ("Optimizations:
const", MicroPython docs). So a module that uses another's integer codes copies them under a header
naming their source:

    # copies of firmware.events (tests/host/test_const_copies.py)
    _CARD = const(3)
    _SHOE = const(6)

and this test keeps the copies true: every `_NAME = const(...)` line after such a header, up to the first
line that is not one, must equal NAME in the module named (both imported here, on CPython, where const()
returns its argument). And no firmware module imports an integer constant from another firmware module,
so the heap the copies save stays saved (docs/performance-log.md, "Memory kept").
"""
import ast
import os
import re

from tests.host.test_firmware_imports import REPO, firmware_modules

_HEADER = re.compile(r"^# copies of (firmware(?:\.\w+)+)\b")
_COPY = re.compile(r"^_([A-Z][A-Z0-9_]*) = const\(")


def copy_blocks(text):
    """[(line number, source module, NAME)] of every copy line under a `# copies of` header."""
    found = []
    source = None
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            source = header.group(1)
            continue
        copy = _COPY.match(line) if source else None
        if copy:
            found.append((number, source, copy.group(1)))
        else:
            source = None
    return found


def int_constants(text):
    """{NAME: value} of the module-level `NAME = const(expr)` and `NAME = expr` lines whose expr is an
    int (literals, and names and operators over the ones before it), private names too. Read from the
    source, as mpy-cross reads const(): nothing is imported (drivers need the simulator's modules)."""
    found = {}
    for node in ast.parse(text).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        expr = node.value
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "const":
            expr = expr.args[0]
        try:
            value = eval(compile(ast.Expression(expr), "<const>", "eval"), {"__builtins__": {}}, dict(found))
        except Exception:
            continue
        if type(value) is int:
            found[node.targets[0].id] = value
    return found


def wrong_copies(rel, text, sources):
    """What is wrong with the copies in one module's text; sources(name) gives a module's int_constants."""
    wrong = []
    own = int_constants(text)
    for line, source_name, const_name in copy_blocks(text):
        source = sources(source_name)
        if const_name not in source:
            wrong.append("%s:%d: %s has no %s" % (rel, line, source_name, const_name))
        elif own.get("_" + const_name) != source[const_name]:
            wrong.append("%s:%d: _%s = %r but %s.%s = %r" % (
                rel, line, const_name, own.get("_" + const_name), source_name, const_name, source[const_name]))
    return wrong


def _sources():
    texts = {}
    modules = firmware_modules(REPO)
    for name, rel in modules.items():
        with open(os.path.join(REPO, rel)) as f:
            texts[name] = f.read()
    constants = {}

    def of(name):
        if name not in constants:
            constants[name] = int_constants(texts[name]) if name in texts else {}
        return constants[name]
    return modules, texts, of


def test_every_copy_equals_its_source():
    modules, texts, of = _sources()
    wrong = []
    copies = 0
    for name, rel in sorted(modules.items()):
        copies += len(copy_blocks(texts[name]))
        wrong += wrong_copies(rel, texts[name], of)
    assert not wrong, "\n".join(wrong)
    assert copies, "no copies found: the header's form changed?"


def test_no_firmware_module_imports_an_int_constant():
    imported = []
    modules, texts, of = _sources()
    for name, rel in sorted(modules.items()):
        for node in ast.walk(ast.parse(texts[name])):
            if isinstance(node, ast.ImportFrom) and node.module in modules and not node.level:
                ints = [n for n in of(node.module) if not n.startswith("_")]
                for alias in node.names:
                    if alias.name in ints:
                        imported.append("%s:%d: %s from %s" % (rel, node.lineno, alias.name, node.module))
    assert not imported, "copy these as private const()s (see this file's docstring):\n" + "\n".join(imported)


def test_a_copy_block_ends_at_the_first_other_line():
    text = ("# copies of firmware.events (x)\n_CARD = const(3)\n_SHOE = const(6)\n\n_LOCAL = const(9)\n"
            "# copies of firmware.table\n_READY = const(1)\nx = 1\n_OTHER = const(2)\n")
    assert copy_blocks(text) == [(2, "firmware.events", "CARD"), (3, "firmware.events", "SHOE"),
                                 (7, "firmware.table", "READY")]


def test_a_wrong_copy_and_a_missing_source_name_are_caught():
    events = {"CARD": 3, "SHOE": 6}
    text = "# copies of firmware.events\n_CARD = const(4)\n_NO_SUCH_CODE = const(1)\n_SHOE = const(2 * 3)\n"
    assert wrong_copies("fake.py", text, lambda name: events) == [
        "fake.py:2: _CARD = 4 but firmware.events.CARD = 3", "fake.py:3: firmware.events has no NO_SUCH_CODE"]
    assert wrong_copies("fake.py", text.replace("(4)", "(3)").replace("_NO_SUCH_CODE = const(1)\n", ""),
                        lambda name: events) == []


def test_int_constants_reads_expressions_over_earlier_names_and_skips_the_rest():
    text = "A = const(2)\n_B = const(A << 3)\nC = 'x'\nD = True\nE = f(1)\nF = A + 1\n"
    assert int_constants(text) == {"A": 2, "_B": 16, "F": 3}


def test_every_copy_is_used_in_its_module():
    # A copy the module no longer reads is dead weight in the source (it costs no heap, but misleads).
    modules, texts, of = _sources()
    unused = []
    for name, rel in sorted(modules.items()):
        for line, source, const_name in copy_blocks(texts[name]):
            if len(re.findall(r"\b_%s\b" % const_name, texts[name])) < 2:
                unused.append("%s:%d: _%s" % (rel, line, const_name))
    assert not unused, "\n".join(unused)


# The code tables: the source of truth of the codes the copies are checked against, never imported by a board
# (tests/firmware/test_boot_release.py boots a table of each game and checks it; this checks every path of
# the firmware, a console command's too, from the source).
_CODE_TABLES = ("firmware.events", "firmware.faults", "firmware.games.baccarat.codes", "firmware.games.craps.codes",
                "firmware.games.omaha.codes", "firmware.table_codes")


def test_no_firmware_module_imports_a_code_table():
    modules, texts, of = _sources()
    imported = []
    for name, rel in sorted(modules.items()):
        for node in ast.walk(ast.parse(texts[name])):
            if isinstance(node, ast.ImportFrom) and not node.level:
                targets = [node.module] + ["%s.%s" % (node.module, alias.name) for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            imported += ["%s:%d: %s" % (rel, node.lineno, t) for t in targets if t in _CODE_TABLES]
    assert not imported, "take their codes as private const()s (see this file's docstring):\n" + "\n".join(imported)


def test_the_names_a_table_keeps_follow_the_code_tables():
    # The runtime's words for the codes moved out of the code tables: each still names its code.
    from firmware import fault_kinds, faults
    from firmware.games.baccarat import codes as baccarat, reports as baccarat_reports, rules
    from firmware.games.craps import codes as craps, reports as craps_reports
    from firmware.games.omaha import codes as omaha, entry, reports as omaha_reports
    for key, code in sorted(int_constants(open(faults.__file__).read()).items()):
        if key != "DEVICE_FIRST":
            assert fault_kinds.name(code) == key.lower(), key
    assert fault_kinds.name(2) == "bad_dice" and fault_kinds.name(faults.BETS_RESTARTED + 1) == "fault_55"
    # firmware/drivers/device_link.py maps a refused frame's status to its fault by their common order
    from firmware import device_frame as F
    assert [fault_kinds.name(s - F.BAD_SYNTAX + faults.FRAME_SYNTAX) for s in range(F.BAD_SYNTAX, F.BAD_ARGS + 1)] == [
        "frame_syntax", "frame_crc", "frame_device", "frame_version", "frame_type", "frame_args"]
    assert [baccarat_reports.DESTINATIONS[c] for c in (rules.PLAYER, rules.BANKER, baccarat.TO_BURN, baccarat.TO_DISCARD)] \
        == ["player", "banker", "burn", "discard"]
    assert len(baccarat_reports.SHOE_NEWS) == baccarat.NEWS_ROADS_FULL + 1
    assert [craps_reports.SHOOTER_WHY[craps.SHOOTER_SEVEN_OUT], craps_reports.SHOOTER_WHY[craps.SHOOTER_STOPPED]] \
        == ["seven_out", "stopped"]
    assert [omaha_reports.DESTINATIONS[c] for c in (omaha.TO_HOLE, omaha.TO_BURN, omaha.TO_BOARD, omaha.TO_DISCARD)] \
        == ["hole", "burn", "board", "discard"]
    assert [entry.KEY_WORDS[c - omaha.K_NEW] for c in (omaha.K_NEW, omaha.K_ALLIN, omaha.K_ENTER)] == ["new", "allin", "enter"]
    assert len(entry.KEY_WORDS) == omaha.K_ENTER - omaha.K_NEW + 1
    # The core table's: OUT_ACK's b words (firmware.table's ACK_NAMES), its states' texts (firmware.screens)
    # and names (Table.STATE_NAMES), and the FAULTED the console's checks read from firmware.table.
    from firmware import screens, table, table_codes as tc
    assert [table.ACK_NAMES[c] for c in (tc.ACK_CONFIRM, tc.ACK_RESCAN, tc.ACK_VOID)] == ["confirm", "rescan", "void"]
    assert [table.Table.STATE_NAMES[c] for c in (tc.STARTING, tc.READY, tc.FAULTED, tc.LAMP_CHECK)] == \
        ["starting", "ready", "fault", "lamp_check"] and len(table.Table.STATE_NAMES) == tc.GAME_FIRST_STATE
    assert screens.STATE_TEXT[tc.FAULTED] == "FAULT" and table.FAULTED == tc.FAULTED


def test_the_link_stores_private_record_codes_agree_across_its_three_modules():
    # The host link store's record kinds and layout sizes are private to its modules (public ones would cost
    # globals kept), so the header above cannot name them: journal_store.py writes BATCH and DROP records,
    # held_frames.py reads every kind and writes a compaction's, journal_read.py reads them back at boot.
    def private(rel):
        with open(os.path.join(REPO, rel)) as f:
            return int_constants(f.read())
    held = private("firmware/link/held_frames.py")
    store = private("firmware/link/journal_store.py")
    read = private("firmware/link/journal_read.py")
    shared = ("_DROP", "_BATCH", "_FRAME_HEAD_SIZE", "_BATCH_HEAD_SIZE", "_WHOLE", "_BATCH_END_SIZE")
    assert [(name, store.get(name)) for name in shared] == [(name, held[name]) for name in shared]
    copied = ("_DROP", "_MARK", "_BATCH", "_BATCH_END_SIZE")
    assert [(name, read.get(name)) for name in copied] == [(name, held[name]) for name in copied]
