# The mutation sampler (tests/host/mutants.py): which mutants a module has, each one change, and a run that
# leaves the working tree and git's worktree list as they were.
import ast
import json
import subprocess

from tests.host import mutants

SOURCE = '''X = const(3)


def f(a, b):
    if a < b and not a:
        return a + 1
    return b in (True,)
'''


def _every(source):
    tree = ast.parse(source)
    return [(site[1], site[3], mutants.mutated(tree, site).splitlines()) for site in mutants.sites(tree)]


def test_each_mutant_is_one_change_and_a_const_declaration_has_none():
    every = _every(SOURCE)
    assert [(kind, line) for kind, line, _ in every] == [
        ("and_or", 5), ("compare", 7), ("compare", 5), ("not", 5), ("operator", 6), ("int", 6), ("bool", 7)]
    plain = ast.unparse(ast.parse(SOURCE)).splitlines()
    changed = [[line for line in text if line not in plain] for _, _, text in every]
    assert changed == [["    if a < b or not a:"], ["    return b not in (True,)"], ["    if a <= b and (not a):"],
                       ["    if a < b and a:"], ["        return a - 1"], ["        return a + 2"],
                       ["    return b in (False,)"]]
    assert all(text[0] == "X = const(3)" for _, _, text in every)
    assert [kind for kind, _, _ in _every("Y = const(-4)\nZ = const(1 << 2)\n")] == []


def _worktrees():
    return subprocess.run(["git", "worktree", "list"], cwd=mutants.REPO, capture_output=True, text=True).stdout


def test_a_run_reports_each_mutant_and_leaves_no_worktree():
    before = _worktrees()
    with open(mutants.REPO + "/firmware/games/craps/dice.py") as f:
        source = f.read()
    lines = []
    survivors = mutants.run("firmware/games/craps/dice.py", 2, 5, ["tests/firmware/test_craps_dice.py"], lines.append)
    reports = [json.loads(line) for line in lines]
    assert len(reports) == 2 and survivors == sum(r["survived"] for r in reports)
    for r in reports:
        assert r["module"] == "firmware/games/craps/dice.py" and r["source"] in source
        assert r["survived"] is (r["killed_by"] is None)
    with open(mutants.REPO + "/firmware/games/craps/dice.py") as f:
        assert f.read() == source
    assert _worktrees() == before


def test_a_group_that_hangs_is_a_caught_mutant_and_its_processes_are_killed(tmp_path, monkeypatch):
    # A mutant can turn a loop endless (the tests then never end: the sampler waited forever on one); a
    # group over its time counts as caught, and the runner's children (a MicroPython VM) go with it.
    import os
    import time
    pid_file = tmp_path / "child.pid"
    stand_in = tmp_path / "python"
    stand_in.write_text("#!/bin/sh\nsleep 60 &\necho $! > %s\nwait\n" % pid_file)
    stand_in.chmod(0o755)
    monkeypatch.setattr(mutants.sys, "executable", str(stand_in))
    start = time.time()
    assert mutants._group_fails("tests/host/test_x.py", str(tmp_path), 1) == [
        "TIMEOUT: tests/host/test_x.py ran over 1 s"]
    assert time.time() - start < 30
    child = int(pid_file.read_text())
    for _ in range(50):                      # (reaped by init: gone, or a zombie for a moment)
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        try:
            with open("/proc/%d/stat" % child) as f:
                if f.read().split(") ")[1].startswith("Z"):
                    break
        except FileNotFoundError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the group's child process outlived the timeout")
