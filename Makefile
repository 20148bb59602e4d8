# Two set-up commands: `make run` and `make test`. Both bootstrap .venv themselves.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

# The linter and the type checker (configured in pyproject.toml); `make test` runs them first.
LINTED := engine app tools bench tests

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Reverse proxies trusted to set X-Forwarded-For/-Proto (comma-separated IPs or networks, e.g.
# `make run ARENA_FORWARDED_ALLOW_IPS=10.0.0.5`). Empty (the default): nobody is trusted, so the
# per-address limits see the real peer address (docs/security.md).
ARENA_FORWARDED_ALLOW_IPS ?=
PROXY_FLAGS := $(if $(strip $(ARENA_FORWARDED_ALLOW_IPS)),--proxy-headers --forwarded-allow-ips '$(strip $(ARENA_FORWARDED_ALLOW_IPS))',--no-proxy-headers)
# Frames above 64 KiB are refused by uvicorn before they are read (the app refuses > 16 KiB).
# No per-message deflate: browsers ask for it, and each socket that has it holds a zlib
# compressor and decompressor (≈ 50 KB more per socket; frames are ≈ 1 KB: bench/HISTORY.md §4).
UVICORN_FLAGS := --ws app.realtime.edge:RoomSocketProtocol --ws-max-size 65536 \
	--ws-per-message-deflate false $(PROXY_FLAGS)

run: $(STAMP)
	mkdir -p data
	$(PY) -m uvicorn app.main:app --host 127.0.0.1 --port 8000 $(UVICORN_FLAGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/mypy

test: lint
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m bench.suite

clean:
	rm -rf $(VENV) data .pytest_cache
