"""Settings for the canasta club site, read from environment variables.

Variables (all optional in development):

- ``DJANGO_ENV``: ``development`` (default) or ``production``. Production refuses to
  start without a real ``SECRET_KEY`` and turns on every ``check --deploy`` protection.
- ``SECRET_KEY``: required in production (50+ characters, not the development key).
- ``DEBUG``: debug pages, on in development unless ``0``/``false``; never in production.
- ``ALLOWED_HOSTS``: comma-separated host names.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins (``https://club.example.org``).
- ``REDIS_URL``: e.g. ``redis://127.0.0.1:6379/0``: the shared cache of several app
  servers, which then also keeps the login sessions' copies; without it the cache is a
  table in the database.
- ``DATABASE_URL``: e.g. ``postgres://user:pass@host:5432/name``; default an SQLite
  file ``db.sqlite3`` beside ``manage.py`` in WAL mode.
- ``SESSION_HOURS``: how long a login lasts on a shared tablet (default 12).
- ``STATIC_ROOT``: where ``collectstatic`` writes (default ``staticfiles/``).
- ``BACKUP_DIR``: where ``manage.py backup`` writes (default ``backups/``).
- ``EXPORTS_DIR``, ``EXPORTS_KEEP_HOURS``: where the worker keeps the league workbooks
  officers asked for (default ``exports/``, private), and for how long (24 hours).
- ``EMAIL_BACKEND``, ``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``,
  ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``, ``DEFAULT_FROM_EMAIL``: sending the day's
  results (console in development, SMTP in production).
- ``TRUSTED_PROXY_COUNT``: reverse proxies in front of gunicorn (1 behind the nginx of
  docs/proxy.md; default 0): where the client's address is read from.
- ``CLUB_NAME``, ``CLUB_SLUG``, ``TIME_ZONE``: a new club's name, the first club's slug,
  a new club's time zone; ``CLUBS_SHARED_SITE``, ``SITE_NAME``, ``SITE_URL``,
  ``SITE_HOSTS``, ``CLUB_SIGNUP``, ``CLUB_SIGNUP_HOURS``: see the README.
- ``CLUB_LANGUAGE``: a new club's language, ``en`` (default), ``es`` or ``pt-br``; each
  club's own is on its settings page; tables, the board and anyone who has not chosen
  follow it (``members.clubs.languages``).
- ``CLUB_PAPER``: ``A4`` or ``Letter``, a new club's paper (the workbook, the day
  sheet, the table cards; each club's own is ``Club.paper``, on its settings page);
  default by the club's language (en: Letter, es and pt-br: A4).
- ``TASKS_BACKEND`` (``db``, default, ``rq`` with ``REDIS_URL``, or ``immediate``),
  ``TASKS_STUCK_MINUTES``: the background work's queue and when /healthz calls it stuck
  (docs/deploy.md, "The worker").
- ``SERVER_TIMING``: each answer says the server CPU it cost (``Server-Timing``; the
  benchmark's servers only, ``clubsite.middleware.server_cpu``).
- ``CONN_MAX_AGE``, ``AXES_FAILURE_LIMIT``, ``LOG_LEVEL``,
  and in production ``SECURE_SSL_REDIRECT`` and ``SECURE_HSTS_SECONDS``: see the
  README's Configuration table.
"""

import datetime
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

DEV_SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DJANGO_ENVIRONMENTS = ("development", "production")
DJANGO_ENV = os.environ.get("DJANGO_ENV", "development").strip().lower()
if DJANGO_ENV not in DJANGO_ENVIRONMENTS:
    # "prod" or a typo must not quietly run the development settings (DEBUG on, the
    # public development key) on a real server.
    raise ImproperlyConfigured(
        f"DJANGO_ENV is {os.environ.get('DJANGO_ENV')!r}; it must be 'development' or "
        "'production'. Set DJANGO_ENV=production on a real server."
    )
PRODUCTION = DJANGO_ENV == "production"

SECRET_KEY = os.environ.get("SECRET_KEY", "" if PRODUCTION else DEV_SECRET_KEY)
if PRODUCTION and (
    len(SECRET_KEY) < 50 or SECRET_KEY == DEV_SECRET_KEY or SECRET_KEY.startswith("django-insecure")
):
    raise ImproperlyConfigured(
        "DJANGO_ENV=production needs a real SECRET_KEY of at least 50 random characters. "
        "Generate one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

DEBUG = False if PRODUCTION else env_bool("DEBUG", default=True)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "clubsite.apps.AdminConfig",  # django.contrib.admin, superusers only (clubsite/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "django_htmx",
    "simple_history",
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "clubsite",
    "members",
    "members.bookings",
    "members.money.apps.MoneyConfig",
    "scoring",
    "scoring.tourney.apps.TourneyConfig",  # events (issue 35): own migrations
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise, so static files keep their long browser cache.
    "clubsite.middleware.private_pages",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    # Which club the request is for: its scope, time zone and /<slug>/ prefix.
    "members.clubs.middleware.clubs",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the login: a member's own language choice comes first (members.clubs.languages).
    "members.clubs.middleware.language",
    "clubsite.middleware.login_device",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Axes must be last: it turns repeated failed logins into a lockout page.
    "axes.middleware.AxesMiddleware",
]
# The benchmark's servers say each request's CPU time (clubsite.middleware.server_cpu);
# outermost, so it counts every middleware's work too.
if env_bool("SERVER_TIMING"):
    MIDDLEWARE.insert(0, "clubsite.middleware.server_cpu")

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "clubsite.urls"
WSGI_APPLICATION = "clubsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "members.clubs.context_processors.club",
            ],
        },
    },
]

# Database: SQLite file by default (WAL, IMMEDIATE transactions so two writers queue
# instead of failing), PostgreSQL through DATABASE_URL (Django's own backend). Each worker
# thread keeps its connection for CONN_MAX_AGE seconds on both: opening a SQLite file and
# running its pragmas again on every request cost more than most pages' own queries.
# CONN_HEALTH_CHECKS: a kept connection is checked (SELECT 1) before a request's first
# query, so one the server dropped (a restart, a fail-over, an idle timeout) is opened
# again instead of failing the page.
# An empty DATABASE_URL (a blank line in an env file) means the default, not a crash.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite's planner is kept informed by ANALYZE after every migrate (clubsite.apps)
    # and PRAGMA optimize when a connection opens (clubsite.sqlite.base).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
        ),
    }

# The cache every worker and server shares: room-code attempt counters, the results
# pages' drawn bodies. Redis when REDIS_URL is set (several
# app servers); otherwise a table in the site's own database (no extra service; made by
# `migrate` and by `manage.py createcachetable`). A worker's own memory holds nothing
# another worker must see.
# A Redis that stops answering costs speed, not pages: Django's Redis backend with a
# client that answers as an empty cache while Redis is out of reach (clubsite.cache says
# why not django-redis), with short timeouts so a Redis that hangs holds a page for at
# most a quarter to half a second (and then not again for a few seconds).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "clubsite.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "club"),
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "club_cache",
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "club"),
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }
# Template fragments that are the same for every request that draws them and depend on
# nothing stored but what their key names (the empty score pad of a rule set, for its
# sides, in one language): each worker keeps its own in memory, at no query's cost.
CACHES["fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "fragments",
    "OPTIONS": {"MAX_ENTRIES": 2000},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

TIME_ZONE = os.environ.get("TIME_ZONE", "America/New_York")
USE_I18N = True
USE_TZ = True

# Languages (docs/development.md, "Languages"): the words are in locale/ (compiled by
# `manage.py compile_catalogs`, which `make run` and `make test` run), the numbers and
# dates in clubsite/formats/. Who reads which language is decided in one place,
# members.clubs.languages: a member's own choice, else the phone's (the switch on the table
# page, a cookie), else the club's language.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español"), ("pt-br", "Português (Brasil)")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["clubsite.formats"]
CLUB_LANGUAGE = os.environ.get("CLUB_LANGUAGE", "en").strip().lower() or "en"
if CLUB_LANGUAGE not in dict(LANGUAGES):
    raise ImproperlyConfigured(
        f"CLUB_LANGUAGE is {CLUB_LANGUAGE!r}; it must be one of: "
        + ", ".join(code for code, _name in LANGUAGES)
        + "."
    )
CLUB_PAPER = os.environ.get("CLUB_PAPER", "").strip()
if CLUB_PAPER and CLUB_PAPER.lower() not in ("a4", "letter"):
    raise ImproperlyConfigured(f"CLUB_PAPER is {CLUB_PAPER!r}; it must be A4 or Letter.")
# The phone's own choice (the table page's switch, Django's set_language view).
LANGUAGE_COOKIE_NAME = "club_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# The league workbooks the worker makes (docs/deploy.md, "The worker"): a private folder,
# never served by the proxy; a page gives each file only to its club's officers, and
# each is deleted after EXPORTS_KEEP_HOURS.
EXPORTS_DIR = Path(os.environ.get("EXPORTS_DIR", BASE_DIR / "exports"))
EXPORTS_KEEP_HOURS = int(os.environ.get("EXPORTS_KEEP_HOURS", "24"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "exports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": EXPORTS_DIR, "base_url": None},
    },
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Outside production WhiteNoise serves straight from static/ (no collectstatic needed).
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION


# Static files skip the clickjacking middleware (WhiteNoise answers first): give them
# the same X-Frame-Options as the pages.
def _static_headers(headers, path, url):
    headers["X-Frame-Options"] = X_FRAME_OPTIONS


WHITENOISE_ADD_HEADERS_FUNCTION = _static_headers

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Sessions: shared tablets at the door and at the tables must not stay logged in for
# days. A login lasts SESSION_HOURS (default 12) and ends when the browser closes.
# Django's own engines: the sessions live in the database (django_session), where they
# outlive a restart and every worker and server sees them. With Redis (REDIS_URL) the
# cache keeps a copy too ("cached_db"): a page reads its session from Redis, and the
# database only when Redis has lost it. Without Redis the cache is itself a database
# table, where "cached_db" would write every session twice to save nothing: "db".
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if REDIS_URL
    else "django.contrib.sessions.backends.db"
)
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_HOURS", "12")) * 3600
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# The client's address. Behind reverse proxies (docs/proxy.md: nginx, which replaces
# X-Forwarded-For with the address it was reached from) every request comes from the
# proxy's own address: TRUSTED_PROXY_COUNT says how many proxies stand in front of
# gunicorn, each adding the address it was reached from to X-Forwarded-For, and the
# client is the entry that many places from the header's right end; entries further
# left are whatever the client sent and are never believed. Without proxies (0, the
# default) the header is ignored and the address is the connection's (REMOTE_ADDR).
# django-ipware reads it with django-axes' settings below, for the login lockouts and
# everything else (`clubsite.devices.client_ip`). ipware counts only the
# proxies *named in* the header, which the last one (the one gunicorn sees) is not:
# hence the "- 1". Non-strict: a header longer than that (a client's own
# X-Forwarded-For kept by a proxy that appends) still gives the right entry.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")
if TRUSTED_PROXY_COUNT:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR",)
    AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXY_COUNT - 1
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)
    AXES_IPWARE_PROXY_COUNT = None
AXES_IPWARE_PROXY_ORDER = "left-most"
IPWARE_STRICT = False
# A request without the header (one that did not come through the proxies) falls back
# to REMOTE_ADDR there. The login lockouts count an IPv6 client by its /64 network.
AXES_CLIENT_IP_CALLABLE = "clubsite.lockout.login_address"

# Login lockout (django-axes, clubsite.lockout): AXES_FAILURE_LIMIT (5) failures lock
# for LOGIN_LOCK_MINUTES (60): a device over any user names (the browser's
# `club_device` cookie, which `clubsite.middleware.login_device` puts in the user agent
# axes records, and its address; clients without the cookie count as one device per
# address), a user name on a device, and a user name at a client address over every
# device there it was never logged in on, so a guesser who takes a new device cookie
# every few tries is stopped too, while the name's member logs in from anywhere else.
# A browser that has logged in with a name before (its signed `club_logins` cookie)
# counts only as a device for that name: wrong passwords typed elsewhere never lock
# its member out of it. A success resets that device's failures; `manage.py
# axes_reset_username NAME` (or deleting the name's access attempts in the admin) lifts
# a lockout at once. The guessing arithmetic: docs/deploy.md, "Security, as deployed".
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
LOGIN_LOCK_MINUTES = 60
AXES_COOLOFF_TIME = datetime.timedelta(minutes=LOGIN_LOCK_MINUTES)
AXES_LOCKOUT_PARAMETERS = "clubsite.lockout.lockout_parameters"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "clubsite.lockout.locked_out"

# Security headers, always on.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts, styles and everything else only from
# this site, no inline script or style anywhere (htmx is told not to add its own
# indicator style, in base.html), no framing, forms post only here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Permissions-Policy (django-permissions-policy): the site needs no camera, microphone,
# location, payment or other device feature.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"
DJANGO_TABLES2_TABLE_ATTRS = {"class": "table"}

BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", BASE_DIR / "backups"))

# A new club's name and time zone (TIME_ZONE above) unless it is given its own; each
# club's are in the database (its settings page). The first club, which the upgrade
# makes, takes them too, and its slug is CLUB_SLUG (else CLUB_NAME slugified, else
# "club").
CLUB_NAME = os.environ.get("CLUB_NAME", "Canasta Club")
# A shared site (many clubs, each at /<slug>/) even while it has only one club; off, a
# site with exactly one club serves it at / (docs/development.md, "Clubs").
CLUBS_SHARED_SITE = env_bool("CLUBS_SHARED_SITE")
# The site's own name, on its list of clubs (a shared site's front page).
SITE_NAME = os.environ.get("SITE_NAME", "Canasta clubs")
# The site's address, for links in e-mails sent outside a request (a new club's first
# officer, from `manage.py create_club`); pages' own e-mails use the address they were
# asked at.
SITE_URL = os.environ.get(
    "SITE_URL",
    f"https://{ALLOWED_HOSTS[0]}" if PRODUCTION and ALLOWED_HOSTS else "http://127.0.0.1:8000",
)
# Host names the shared site itself is served on, besides SITE_URL's (comma-separated):
# no club may be given one of them as its own host (members.clubs.addresses).
SITE_HOSTS = env_list("SITE_HOSTS")
# Self-service "Start a club" on a shared site's front page (off: its pages are 404).
CLUB_SIGNUP = env_bool("CLUB_SIGNUP")
# How long a sign-up's confirmation link works.
CLUB_SIGNUP_HOURS = int(os.environ.get("CLUB_SIGNUP_HOURS", "48"))

# E-mail (the day's results to members who asked): Django's e-mail framework. In
# development messages are printed to the console; in production they go through the
# SMTP server named here. The tests use the in-memory backend (pytest-django).
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587" if PRODUCTION else "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=PRODUCTION)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "results@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Background work (the results e-mail, the sign-up and officer mails, the workbook):
# Django's Tasks framework (the django-tasks backport of Django 6's django.tasks). The
# default queue is a table in the site's own database, run by `manage.py db_worker`
# (docs/deploy.md, "The worker"): nothing else to install, and it works the same for
# several app servers on one database. "immediate" runs each task inside the request
# that enqueued it (the tests; a site that must run without a worker).
# "rq" puts the queue in Redis (REDIS_URL) for RQ's workers (`manage.py rqworker`,
# django-tasks-rq): the choice of a site whose app servers already share a Redis
# (docs/deploy.md, "Several app servers"). Its jobs may run an hour (a large club's
# backup or rebuild); RQ's own default would stop them after 3 minutes.
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "db").strip().lower()
_TASK_BACKENDS = {
    "db": "django_tasks_db.DatabaseBackend",
    "immediate": "django_tasks.backends.immediate.ImmediateBackend",
    "rq": "django_tasks_rq.RQBackend",
}
if TASKS_BACKEND not in _TASK_BACKENDS:
    raise ImproperlyConfigured(
        f"TASKS_BACKEND={TASKS_BACKEND!r}: use one of {', '.join(_TASK_BACKENDS)}."
    )
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[TASKS_BACKEND]}}
if TASKS_BACKEND == "rq":
    if not REDIS_URL:
        raise ImproperlyConfigured("TASKS_BACKEND=rq needs REDIS_URL (the Redis RQ queues in).")
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    TASKS["default"]["QUEUES"] = ["default"]
    RQ_QUEUES = {"default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 3600}}
# /healthz says "degraded" when the oldest task waiting for the worker has waited longer
# than this (the worker stopped, or too few for the work).
TASKS_STUCK_MINUTES = int(os.environ.get("TASKS_STUCK_MINUTES", "10"))

# A refused request (403, a suspicious 400) is one line in the log, not a traceback
# (clubsite.logfilters); a 500 keeps its traceback. The filter is on the django.request
# logger (403s) and on the handler (django.security.*, a logger per kind of refusal).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"client_errors": {"()": "clubsite.logfilters.ClientErrorsInOneLine"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["client_errors"]},
    },
    "loggers": {"django.request": {"filters": ["client_errors"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
