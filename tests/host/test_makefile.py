"""The Makefile's setup steps fail with a one-line error naming the fix."""
import os
import shutil
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_missing_node_is_a_clear_error(tmp_path):
    # A PATH holding only make: node and npm are "not installed".
    os.symlink(shutil.which("make"), tmp_path / "make")
    proc = subprocess.run(["make", "-B", "node_modules/.installed"], cwd=REPO, capture_output=True, text=True,
                          env={"PATH": str(tmp_path)}, timeout=60)
    assert proc.returncode != 0
    assert "error: node/npm not found: install Node.js >= 18" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_too_old_python_is_a_clear_error(tmp_path):
    fake = tmp_path / "python-old"
    fake.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Python 3.8.0'; exit 0; fi\nexit 1\n")
    fake.chmod(0o755)
    # The guard stops before the venv is touched (the fake python fails anything else anyway).
    proc = subprocess.run(["make", "-B", "PYTHON=" + str(fake), ".venv/.installed"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "error: Python >= 3.11 needed (found Python 3.8.0)" in proc.stdout
