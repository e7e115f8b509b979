# Two commands are the contract: `make sim` and `make test` (see README.md).
# Each sets up what it needs: a local .venv from requirements.txt and the
# MicroPython WebAssembly runtime from package-lock.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BOARD ?= pico
PORT ?= /dev/ttyACM0

.PHONY: sim test build deploy deps clean floor

sim: deps
	$(PY) -m hostsim $(SIM_ARGS)

test: deps
	$(PY) -m pytest

# A floor of simulated tables through the MQTT gateway into the embedded broker (docs/floor.md).
FLOOR_ARGS ?= --tables 6 --rounds 10 --seed 1
floor: deps
	$(PY) -m tools.floor simulate $(FLOOR_ARGS)

build: deps
	$(PY) -m tools.build --board $(BOARD)

deploy: build
	$(PY) -m tools.deploy --board $(BOARD) --port $(PORT) $(DEPLOY_FLAGS)

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
