"""gunicorn settings for a real deployment: ``gunicorn -c clubsite/gunicorn_conf.py clubsite.wsgi``.

Threaded workers (``gthread``): a phone on weak club Wi-Fi that opens a connection and
sends its request slowly, or never finishes it, holds one thread, not a whole worker, so
the other tables keep being served. Each value can be set from the environment.

- ``GUNICORN_BIND``: address and port (default ``127.0.0.1:8000``, behind the proxy).
- ``WEB_CONCURRENCY``: worker processes (default 3; about one per core plus one).
- ``GUNICORN_THREADS``: threads per worker (default 8).
- ``GUNICORN_TIMEOUT``: seconds before a stuck worker is restarted (default 30).
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# A kept-alive connection with nothing more to say is closed after a few seconds.
keepalive = 5
# Requests with absurd header sizes are refused before they reach Django.
limit_request_line = 8190
limit_request_fields = 100
accesslog = "-"
