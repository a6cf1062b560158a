"""Many clubs on one site: which club a request is for (:mod:`.middleware`), the
addresses of a club's pages (:mod:`.addresses`), the site's list of clubs, a login's
choice of club and a club's settings page (:mod:`.views`)."""
