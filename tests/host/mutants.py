"""Mutation sampling: which small changes to a module do the tests let through?

    .venv/bin/python -m tests.host.mutants firmware/games/craps/rules.py --count 30 --seed 1 \\
        --tests "tests/firmware -k craps" --tests "tests/host/test_judge_craps.py tests/host/test_craps_props.py"

A mutant is one change: a comparison turned (< and <=, > and >=, == and !=, in and not in, is and is not),
an operator swapped (+ and -, * and //, % to //, & and |, << and >>), `and` for `or` or back, a `not` left
out, an int constant one more, a bool constant flipped (nothing inside a `const()`). COUNT of
them, drawn with SEED among every place in the module, are run one at a time against each --tests group in
turn (pytest -x on CPython) in a git worktree of HEAD made for the run and removed after it: the working tree
is never touched. One JSON line a mutant: `survived` true where every group passed. A survivor is either a
mutant that changes nothing the module promises (read it: a bound that cannot be reached, a cache, a message's
wording) or a test missing. Stop 65 ran it over the rules, the link store and the table's core and added a test
for each survivor that changed behaviour (docs/hostsim.md, "Soak and fuzz").
"""
import argparse
import ast
import copy
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_TURNED = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
           ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_SWAPPED = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv,
            ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.LShift: ast.RShift, ast.RShift: ast.LShift}


def _parents(tree):
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _in_const(node, parents):
    """Inside a `const(...)` call: a MicroPython constant's value (a code other modules copy)."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "const":
            return True
    return False


def _changes(node, parents):
    """The mutants of one node: (kind, operand index) each."""
    if _in_const(node, parents):
        return []
    if isinstance(node, ast.Compare):
        return [("compare", i) for i, op in enumerate(node.ops) if type(op) in _TURNED]
    if isinstance(node, ast.BinOp) and type(node.op) in _SWAPPED:
        return [("operator", 0)]
    if isinstance(node, ast.BoolOp):
        return [("and_or", 0)]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return [("not", 0)]
    if isinstance(node, ast.Constant) and type(node.value) in (int, bool):
        return [("int" if type(node.value) is int else "bool", 0)]
    return []


def sites(tree):
    """Every mutant of the module: (node index in ast.walk order, kind, operand index, line, column)."""
    parents = _parents(tree)
    out = []
    for n, node in enumerate(ast.walk(tree)):
        for kind, i in _changes(node, parents):
            out.append((n, kind, i, node.lineno, node.col_offset))
    return out


def mutated(tree, site):
    """The module's source with one mutant (a site of sites(tree)) in it."""
    tree = copy.deepcopy(tree)
    parents = _parents(tree)
    number, kind, i = site[:3]
    node = list(ast.walk(tree))[number]
    if kind == "compare":
        node.ops[i] = _TURNED[type(node.ops[i])]()
    elif kind == "operator":
        node.op = _SWAPPED[type(node.op)]()
    elif kind == "and_or":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "not":
        parent = parents[node]
        for field, value in ast.iter_fields(parent):
            if value is node:
                setattr(parent, field, node.operand)
            elif isinstance(value, list) and node in value:
                value[value.index(node)] = node.operand
    elif kind == "int":
        node.value += 1
    else:
        node.value = not node.value
    return ast.unparse(tree)


def _worktree():
    tree = tempfile.mkdtemp(prefix="mutants-")
    os.rmdir(tree)
    subprocess.run(["git", "worktree", "add", "-q", "--detach", tree, "HEAD"], cwd=REPO, check=True)
    for shared in (".venv", "node_modules"):
        if os.path.exists(os.path.join(REPO, shared)):
            os.symlink(os.path.join(REPO, shared), os.path.join(tree, shared))
    return tree


def _group_fails(group, work, timeout):
    """Run one pytest group in the worktree: None if it passes, else the first FAILED/ERROR line (a list of
    at most one), or the timeout's own line: a mutant that makes the tests hang (a loop that never ends) is
    caught by them, as a wrong result would be. The whole process group is killed (the runners' children)."""
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"] + shlex.split(group),
                            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        stdout, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return ["TIMEOUT: %s ran over %d s" % (group, timeout)]
    if not proc.returncode:
        return None
    return [line for line in stdout.splitlines() if line.startswith(("FAILED", "ERROR"))][:1]


def run(module, count, seed, groups, out=print, timeout=600):
    """Sample count mutants of module (a path from the repository's top) and run the groups on each (each
    group at most `timeout` seconds: longer is a hang, the mutant caught)."""
    source = open(os.path.join(REPO, module)).read()
    tree = ast.parse(source)
    every = sites(tree)
    chosen = random.Random(seed).sample(every, min(count, len(every)))
    lines = source.splitlines()
    work = _worktree()
    path = os.path.join(work, module)
    survivors = 0
    try:
        for site in chosen:
            with open(path, "w") as f:
                f.write(mutated(tree, site))
            start = time.time()
            failed = None
            for group in groups:
                failed = _group_fails(group, work, timeout)
                if failed is not None:
                    break
            survivors += failed is None
            out(json.dumps({"module": module, "line": site[3], "column": site[4], "mutant": site[1],
                            "survived": failed is None,
                            "killed_by": failed, "seconds": round(time.time() - start, 1),
                            "source": lines[site[3] - 1].strip()[:120]}))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", work], cwd=REPO, check=False)
        shutil.rmtree(work, ignore_errors=True)
    return survivors


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("module", help="a module's path from the repository's top, e.g. firmware/link/store.py")
    parser.add_argument("--count", type=int, default=20, help="mutants to run (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tests", action="append", required=True,
                        help="a pytest argument line; give several: each runs only while the ones before pass")
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds a test group may run before the mutant counts as caught (a hang; default 600)")
    args = parser.parse_args(argv)
    run(args.module, args.count, args.seed, args.tests, out=lambda line: print(line, flush=True),
        timeout=args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
