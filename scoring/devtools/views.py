"""The benchmark's yardstick: the smallest possible Django view."""

from django.http import HttpResponse


def minimal(request):
    """Answer "ok" and nothing else: every page is measured as a multiple of this."""
    return HttpResponse("ok")
