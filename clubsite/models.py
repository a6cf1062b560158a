"""The site's own table: the login sessions."""

from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class ClubSession(AbstractBaseSession):
    """Django's database session, with the logged-in user's id in a column of its own
    (written by :class:`clubsite.sessions.SessionStore` whenever the session is saved),
    so the session and its user are read in one query on every page."""

    user_id = models.IntegerField(null=True, blank=True)

    class Meta(AbstractBaseSession.Meta):
        verbose_name = "login session"
        verbose_name_plural = "login sessions"

    @classmethod
    def get_session_store_class(cls):
        from clubsite.sessions import SessionStore

        return SessionStore
