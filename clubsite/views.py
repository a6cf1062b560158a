from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render


def home(request):
    """The front page: what to do next, by role."""
    return render(request, "home.html")


def healthz(request):
    """For load balancers and uptime checks: the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"status": "ok"})
