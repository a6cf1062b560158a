"""Site-wide middleware of our own (the frame: it imports nothing of the apps). The
club's middleware (which club a request is for, the reader's language) is in
``members.clubs.middleware``."""

import time

from django.urls import reverse
from django.utils.cache import patch_cache_control

#: How a login attempt names its device to django-axes (see :func:`login_device`).
DEVICE_MARK = "device:{}"


def server_cpu(get_response):
    """The CPU time the server thread spent on a request, as ``Server-Timing: cpu;dur=…``
    (milliseconds; the W3C Server-Timing header): the benchmark's figure per request
    kind (``manage.py benchmark``). CPU time of this thread only (``thread_time``), so a
    busy machine or another thread of the worker does not inflate it. Only in
    ``MIDDLEWARE`` when ``SERVER_TIMING`` is set (the benchmark's servers): it tells
    anyone how long a page took to draw."""

    def middleware(request):
        began = time.thread_time()
        response = get_response(request)
        spent = (time.thread_time() - began) * 1000
        response["Server-Timing"] = f"cpu;dur={spent:.2f}"
        return response

    return middleware


def private_pages(get_response):
    """Every page the site draws is ``Cache-Control: private, no-store``: a member's page
    with an e-mail address and phone number, an officer's lists or a table's score pad
    must not be kept by a shared tablet's browser or a proxy once the person has gone.
    Static files (served by WhiteNoise above this middleware) keep their long cache.
    A view that sets its own Cache-Control keeps it."""

    def middleware(request):
        response = get_response(request)
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


def login_device(get_response):
    """Login lockouts that stop the guesser, not the club (what is counted:
    ``clubsite.lockout``): django-axes counts failures per device, so wrong passwords
    typed for the officer's name on someone else's phone, behind the club's router or
    from anywhere, lock that phone, and a device that tries many user names is stopped
    by its own failures. The device is the browser's signed ``club_device`` cookie,
    which every browser is given on the login page; axes reads it from the user agent it
    records, which is replaced here by the device alone, so a script cannot dodge a
    lockout by changing its User-Agent. Clients without the cookie share one device per
    address ("none"): their failures lock only the cookie-less. A successful login
    makes the browser known for that user name, so its member is never locked out of it
    by wrong passwords typed elsewhere (a name's failures on new browsers lock new
    browsers only)."""
    from clubsite.devices import device_id, remember_device
    from clubsite.lockout import remember_login

    def middleware(request):
        login = request.path == reverse("login")
        if login and request.method == "POST":
            request.META["HTTP_USER_AGENT"] = DEVICE_MARK.format(device_id(request) or "none")
        response = get_response(request)
        if login and request.method == "GET":
            remember_device(request, response)
        elif login and response.status_code == 302 and request.user.is_authenticated:
            remember_login(request, response, request.user.get_username())
        return response

    return middleware
