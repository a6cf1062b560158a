"""A new club's first officer: their login, and the one-time link that lets them set
its password.

The link is Django's own password-reset link (``PasswordResetTokenGenerator``, the
auth views' set-password page) at the club's address: it works once, because setting
the password changes what its token was made from, and for ``PASSWORD_RESET_TIMEOUT``
at most (three days)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.template.loader import render_to_string
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from members.clubs.scope import club_path


class OfficerProblem(Exception):
    """Why the officer's login cannot be made, in plain words."""


def officer_login(*, email="", username="", password=None, first_name="", last_name=""):
    """The login of a new club's first officer: the login named ``username`` (made when
    missing), else the one login with ``email``, else a new login named after the
    e-mail. A new login without ``password`` has none until its link sets one. An
    existing login keeps its password. Raises :class:`OfficerProblem`."""
    users = get_user_model().objects
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise OfficerProblem(f"“{email}” is not an e-mail address.") from None
    if password and not username:
        raise OfficerProblem("A password needs the login's name: add --officer-username.")
    if username:
        found = users.filter(username=username).first()
        if found is not None:
            if password:
                raise OfficerProblem(
                    f"A login named {username} exists already. Leave out the password to "
                    "make that login the officer (its own password stays)."
                )
            return found
        if not password and not email:
            raise OfficerProblem(
                f"The new login {username} needs a password or an e-mail address for its "
                "link to set one."
            )
    elif email:
        same = list(users.filter(email__iexact=email)[:2])
        if len(same) == 1:
            return same[0]
        username = free_username(email.lower())
    else:
        raise OfficerProblem(
            "Say who the club's first officer is: an e-mail address (they are sent a link "
            "to set a password), or a login's name and password."
        )
    user = users.model(username=username, email=email, first_name=first_name, last_name=last_name)
    if password:
        try:
            validate_password(password, user)
        except ValidationError as problem:
            message = "The password will not do: " + " ".join(problem.messages)
            raise OfficerProblem(message) from None
    user.set_password(password)  # None: no password until the link sets one
    user.save()
    return user


def free_username(wanted: str) -> str:
    """``wanted`` (cut to fit), or with -2, -3, ... when a login has it already."""
    users = get_user_model().objects
    wanted = wanted[:140]
    name, n = wanted, 1
    while users.filter(username__iexact=name).exists():
        n += 1
        name = f"{wanted}-{n}"
    return name


def club_page_url(club, name: str, request=None, **kwargs) -> str:
    """The full address of page ``name`` of ``club`` (``/<slug>/…``, which works on
    every host of the site): from the request, else from ``SITE_URL``."""
    path = club_path(request, club, name, **kwargs)
    if request is not None:
        return request.build_absolute_uri(path)
    return settings.SITE_URL.rstrip("/") + path


def set_password_url(user, club, request=None) -> str:
    """The one-time link at ``club``'s address that lets ``user`` set a password."""
    return club_page_url(
        club,
        "password_reset_confirm",
        request,
        uidb64=urlsafe_base64_encode(force_bytes(user.pk)),
        token=default_token_generator.make_token(user),
    )


def officer_link(user, club, request=None) -> str:
    """Where a new officer starts: the one-time link to set a password when the login
    has none, else the club's login page."""
    if user.has_usable_password():
        return club_page_url(club, "login", request)
    return set_password_url(user, club, request)


def welcome_officer(user, club, link: str, request=None) -> None:
    """E-mail ``user`` that they are ``club``'s officer, with ``link``
    (:func:`officer_link`). Errors of the mail server are raised."""
    context = {
        "user": user,
        "club": club,
        "link": link,
        "sets_password": not user.has_usable_password(),
        "home": club_page_url(club, "home", request),
        "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
    }
    subject = render_to_string("clubs/email/officer_welcome_subject.txt", context)
    body = render_to_string("clubs/email/officer_welcome.txt", context)
    send_mail(" ".join(subject.split()), body, None, [user.email])
