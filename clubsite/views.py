from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render

from scoring.play.devices import remember_device


def home(request):
    """The front page: what to do next, by role. It gives the browser its device cookie,
    so the room code typed next is judged by this phone's own tries."""
    response = render(request, "home.html")
    remember_device(request, response)
    return response


def healthz(request):
    """For load balancers and uptime checks: the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"status": "ok"})
