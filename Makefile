# Two commands are the contract: `make sim` and `make test` (see README.md).
# Each sets up what it needs: a local .venv from requirements.txt and the
# MicroPython WebAssembly runtime from package-lock.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BOARD ?= pico
PORT ?= /dev/ttyACM0

.PHONY: sim test build deploy deps clean floor bench

sim: deps
	$(PY) -m hostsim $(SIM_ARGS)

test: deps
	$(PY) -m pytest

# A floor of simulated tables through the MQTT gateway into the embedded broker (docs/floor.md).
FLOOR_ARGS ?= --tables 6 --rounds 10 --seed 1
floor: deps
	$(PY) -m tools.floor simulate $(FLOOR_ARGS)

# FROZEN=1: a frozen build, the firmware's sources for a MicroPython image (docs/build-deploy.md, "Frozen
# bytecode"); `make deploy ... FROZEN=1` then deploys it with --frozen.
FROZEN_FLAG := $(if $(filter 1,$(FROZEN)), --frozen)

build: deps
	$(PY) -m tools.build --board $(BOARD)$(FROZEN_FLAG)

# Every bench, each printing its command's figures and the machine that made them (docs/performance.md
# says how they were run: each twice). The VM benches need node (deps). BENCH_MEMORY_ARGS shortens
# the memory bench (default: 10 x 1000 rounds per game), e.g. BENCH_MEMORY_ARGS="--rounds-per-step 100".
BENCH_MEMORY_ARGS ?=

bench: deps
	$(PY) bench/baccarat_odds.py
	$(PY) bench/craps_odds.py --vm
	$(PY) bench/omaha_eval.py
	$(PY) bench/native_unix.py
	$(PY) bench/port_kernels.py
	$(PY) bench/whole_table.py --port unix
	$(PY) -m tools.mpvm --steps bench/scoreboard_vm.py
	$(PY) -m tools.mpvm --steps bench/lights_vm.py --copy bench
	$(PY) bench/whole_table.py --memory $(BENCH_MEMORY_ARGS)
	$(PY) bench/romfs_ram.py --measure
	$(PY) bench/flash.py
	$(PY) bench/craps_crapssim.py
	$(PY) bench/eval_treys.py
	$(PY) bench/headless.py
	$(PY) bench/shoe_refill.py
	$(PY) bench/wire_time.py
	$(PY) bench/stack_depth.py

deploy: build
	$(PY) -m tools.deploy --board $(BOARD) --port $(PORT)$(FROZEN_FLAG) $(DEPLOY_FLAGS)

deps: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt requirements-nodeps.txt
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found: install Python >= 3.11"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "error: Python >= 3.11 needed (found $$($(PYTHON) --version)); set PYTHON=python3.11"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-nodeps.txt
	@touch $@

node_modules/.installed: package.json package-lock.json
	@command -v node >/dev/null && command -v npm >/dev/null || { echo "error: node/npm not found: install Node.js >= 18 with npm (e.g. apt-get install nodejs npm)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

clean:
	rm -rf build .pytest_cache .hypothesis
