"""The Makefile's setup steps fail with a one-line error naming the fix.

make runs in a copy of the Makefile and the files its setup rules depend on,
inside tmp_path, so nothing here can touch the repository's .venv or node_modules.
"""
import os
import shutil
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The Makefile and the prerequisites of its .venv/.installed and node_modules/.installed rules.
SETUP_FILES = ("Makefile", "requirements.txt", "requirements-nodeps.txt", "package.json", "package-lock.json")


def make_copy(tmp_path):
    work = tmp_path / "repo"
    work.mkdir()
    for name in SETUP_FILES:
        shutil.copy(os.path.join(REPO, name), work / name)
    return work


def test_missing_node_is_a_clear_error(tmp_path):
    work = make_copy(tmp_path)
    # A PATH holding only make: node and npm are "not installed".
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(shutil.which("make"), bin_dir / "make")
    proc = subprocess.run(["make", "node_modules/.installed"], cwd=work, capture_output=True, text=True,
                          env={"PATH": str(bin_dir)}, timeout=60)
    assert proc.returncode != 0
    assert "error: node/npm not found: install Node.js >= 18" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr
    assert not (work / "node_modules").exists()


def test_too_old_python_is_a_clear_error(tmp_path):
    work = make_copy(tmp_path)
    fake = tmp_path / "python-old"
    fake.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Python 3.8.0'; exit 0; fi\nexit 1\n")
    fake.chmod(0o755)
    proc = subprocess.run(["make", "PYTHON=" + str(fake), ".venv/.installed"], cwd=work,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "error: Python >= 3.11 needed (found Python 3.8.0)" in proc.stdout
    assert not (work / ".venv").exists()                  # the guard stops before the venv is made


def test_make_bench_runs_every_bench():
    # `make -n` prints the commands without running any. Every bench script in bench/ that is run
    # as a command (not a helper module or a VM script its driver runs) is in `make bench`.
    proc = subprocess.run(["make", "-n", "bench"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    for command in ("bench/baccarat_odds.py", "bench/craps_odds.py --vm", "bench/omaha_eval.py",
                    "tools.mpvm --steps bench/scoreboard_vm.py", "bench/whole_table.py --memory", "bench/flash.py",
                    "bench/craps_crapssim.py", "bench/eval_treys.py", "bench/headless.py", "bench/shoe_refill.py"):
        assert command in proc.stdout, command
    helpers = {"benchutil.py", "vmtable.py", "frozen_residual.py", "vmclock.py", "code_census.py",    # imported by other benches
               "pass_parts.py", "profile_pass.py", "profile_report.py", "baccarat_parts_vm.py",
               "standins_vm.py", "baccarat_pass_vm.py", "warm_cold_vm.py"}   # profiling and A/B aids
    driven = {"omaha_vm.py": "omaha_eval.py", "craps_vm.py": "craps_odds.py", "table_vm.py": "whole_table.py",
              "memory_vm.py": "whole_table.py", "memory_flash_vm.py": "whole_table.py",
              "stack_depth_vm.py": "stack_depth.py"}
    for name in sorted(os.listdir(os.path.join(REPO, "bench"))):
        if not name.endswith(".py") or name in helpers:
            continue
        assert ("bench/" + driven.get(name, name)) in proc.stdout, name


def test_make_build_and_deploy_pass_frozen_with_frozen_1_only():
    # `make build BOARD=pico FROZEN=1`: a frozen build (docs/build-deploy.md "Frozen bytecode"), and `make deploy`
    # with FROZEN=1 deploys it with --frozen; without FROZEN the commands are as they were.
    def commands(*args):
        proc = subprocess.run(["make", "-n"] + list(args), cwd=REPO, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return [line for line in proc.stdout.splitlines() if "-m tools." in line]
    assert commands("build", "BOARD=pico", "FROZEN=1") == [".venv/bin/python -m tools.build --board pico --frozen"]
    assert commands("build", "BOARD=pico") == [".venv/bin/python -m tools.build --board pico"]
    assert commands("build", "BOARD=pico", "FROZEN=0") == [".venv/bin/python -m tools.build --board pico"]
    assert commands("deploy", "BOARD=pico", "FROZEN=1", "DEPLOY_FLAGS=--dry-run") == [
        ".venv/bin/python -m tools.build --board pico --frozen",
        ".venv/bin/python -m tools.deploy --board pico --port /dev/ttyACM0 --frozen --dry-run"]
    assert commands("deploy", "BOARD=pico")[-1] == ".venv/bin/python -m tools.deploy --board pico --port /dev/ttyACM0 "
