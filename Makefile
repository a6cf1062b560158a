# The two commands of the README: `make run` and `make test`. Both are safe to run again.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint migrate demo clean bench catalogs messages

$(STAMP): requirements.txt requirements-dev.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

install: $(STAMP)

# The translation catalogs (locale/): compiled with Babel, so no GNU gettext is needed.
catalogs: install
	$(BIN)/python manage.py compile_catalogs

# After changing or adding words: gather them into locale/*/django.po (needs GNU gettext's
# xgettext: apt-get install gettext), then translate the new entries (docs/glossary.md).
messages: install
	$(BIN)/python manage.py makemessages -l es -l pt_BR --no-obsolete --add-location file \
		--ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'artifacts/*' \
		--ignore '*/tests/*' --ignore 'testsupport/*' --ignore 'scoring/devtools/*'

migrate: install catalogs
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable --verbosity 0

demo: migrate
	$(BIN)/python manage.py load_demo --host $(HOST) --port $(PORT)

# The server in the foreground and the background worker beside it (the results e-mail,
# the sign-up mails and the workbook are its tasks); stopping the server stops the worker.
run: demo
	$(BIN)/python manage.py requeue_stuck --verbosity 0
	@$(BIN)/python manage.py db_worker --no-reload --verbosity 1 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python manage.py makemigrations --check --dry-run

test: lint catalogs
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache locale/*/LC_MESSAGES/*.mo

# The club-night benchmark: first the server CPU of each request kind (one at a time, on
# a 60-person league), then how many tables one server holds (p95 <= 150 ms, no failure)
# on a throwaway SQLite file; and when BENCH_DATABASE_URL names a PostgreSQL database it
# may wipe (e.g. postgres://postgres@127.0.0.1:5432/h_bench), on PostgreSQL as a large
# club host deploys it (the cache on Redis, behind the shipped nginx, with the task
# worker: docs/deploy.md), then one and two such app servers each given BENCH_SHARE of a
# CPU (a cgroup each, so root): two small machines against one. BENCH_ARGS adds options
# to the capacity runs, e.g. BENCH_ARGS="--steps 25,100 --seconds 20". The PostgreSQL
# runs need nginx and redis-server installed (a throwaway Redis is started).
BENCH_DATABASE_URL ?=
BENCH_SHARE ?= 0.7
BENCH_ONE_STEPS ?= 400,600,800,1000,1200
BENCH_TWO_STEPS ?= 800,1200,1600,2000,2400
BENCH_SCALE = --no-sqlite --database-url $(BENCH_DATABASE_URL) --cpu-share $(BENCH_SHARE) \
	--redis --proxy --worker --no-figures --seconds 60 --people 60
bench: install
	$(BIN)/python manage.py benchmark --cpu --people 60
	$(BIN)/python manage.py benchmark $(BENCH_ARGS)
ifneq ($(BENCH_DATABASE_URL),)
	$(BIN)/python manage.py benchmark --no-sqlite --database-url $(BENCH_DATABASE_URL) \
		--redis --proxy --worker $(BENCH_ARGS)
	$(BIN)/python manage.py benchmark $(BENCH_SCALE) --servers 1 --steps $(BENCH_ONE_STEPS)
	$(BIN)/python manage.py benchmark $(BENCH_SCALE) --servers 2 --steps $(BENCH_TWO_STEPS)
endif
