"""Site-wide middleware of our own."""

from django.utils.cache import patch_cache_control


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
