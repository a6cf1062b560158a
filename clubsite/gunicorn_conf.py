"""gunicorn settings for a real deployment: ``gunicorn -c clubsite/gunicorn_conf.py clubsite.wsgi``.

Threaded workers (``gthread``). A connection holds one of a worker's threads while its
request is read, and gunicorn never cuts a client for being slow: ten clients that send
their headers a line every few seconds can hold every thread of a worker. So gunicorn
listens on the loopback address only, behind nginx, which reads each request whole and
cuts slow clients (docs/proxy.md, ``clubsite/deploy/nginx/``). Each value can be set from
the environment.

- ``GUNICORN_BIND``: address and port (default ``127.0.0.1:8000``, behind the proxy).
- ``WEB_CONCURRENCY``: worker processes (default two per core, plus two: 6 on 2 cores).
- ``GUNICORN_THREADS``: threads per worker (default 2).
- ``GUNICORN_WORKER_CLASS``: ``gthread`` (default) or ``sync`` (then give
  ``GUNICORN_THREADS=1``: gunicorn turns a sync worker with threads into gthread).
- ``GUNICORN_TIMEOUT``: seconds before a stuck worker is restarted (default 30).
"""

import os

# More processes with few threads each, not a few processes with many threads: a thread
# that comes back from the database waits for its process's GIL while the other threads
# draw pages, so with 8 threads a request waited more than it worked. Measured with the
# club-night benchmark on the 2-core machine (docs/development.md, 2026-11-26): 6 workers
# of 2 threads hold 500 tables on PostgreSQL and on SQLite, where 3 workers of 8 threads
# held 250 on each (save p95 at 2,000 tables on PostgreSQL 1,900 -> 550 ms).
# Sync workers (one thread each) behind the buffering nginx against gthread, measured
# as the server's CPU per request (``manage.py benchmark --cpu --people 60``, whole
# server from /proc, 40 requests of each kind; 2026-11-28, SQLite, the machine shared
# and saturated, load average 8-13): 6 sync workers against 6 gthread workers of 2
# threads: table page 56.4 / 56.0 ms, preview 19.6 / 18.4, board poll 7.2 / 7.2 -- the
# same within the noise; gunicorn's own share is 1.5-3.5 ms a request either way. So the
# class is not what costs CPU; gthread stays, as measured above for capacity. A
# capacity step of each at 250 tables was tried the same day and says nothing: the
# whole machine was busy (2.00 of 2 cores, the server given 0.08), so it is to be
# repeated on a quiet machine (docs/development.md, "Figures").

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
# The cores this process may use (a container's limit), not all of the host's.
workers = int(os.environ.get("WEB_CONCURRENCY", str(2 * len(os.sched_getaffinity(0)) + 2)))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# A kept-alive connection with nothing more to say is closed after a few seconds.
keepalive = 5
# Requests with absurd header sizes are refused before they reach Django.
limit_request_line = 8190
limit_request_fields = 100
accesslog = "-"
