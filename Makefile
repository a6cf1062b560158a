# The two commands of the README: `make run` and `make test`. Both are safe to run again.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint migrate demo clean bench

$(STAMP): requirements.txt requirements-dev.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable --verbosity 0

demo: migrate
	$(BIN)/python manage.py load_demo --host $(HOST) --port $(PORT)

run: demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python manage.py makemigrations --check --dry-run

test: lint
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache

# The benchmark (issue #14): pages over HTTP through gunicorn against a generated league
# in a throwaway database, query counts, the workbook, the engine. BENCH_ARGS adds
# options, e.g. BENCH_ARGS="--database-url postgres://postgres@127.0.0.1:5432/bench".
bench: migrate
	$(BIN)/python manage.py benchmark $(BENCH_ARGS)
