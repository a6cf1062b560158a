"""gunicorn settings for a real deployment: ``gunicorn -c clubsite/gunicorn_conf.py clubsite.wsgi``.

Threaded workers (``gthread``). A connection holds one of a worker's threads while its
request is read, and gunicorn never cuts a client for being slow: ten clients that send
their headers a line every few seconds can hold every thread of a worker. So gunicorn
listens on the loopback address only, behind nginx, which reads each request whole and
cuts slow clients (docs/proxy.md, ``clubsite/deploy/nginx/``). Each value can be set from
the environment.

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
