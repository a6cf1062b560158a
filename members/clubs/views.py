"""The site's own pages about clubs: the list of clubs (a shared site's front page), a
login's clubs to choose from, a new officer's set-password link, and "Start a club"
(:mod:`.signup`). The club's settings page is scoring's
(``scoring.play.views.club_settings``): it writes the game settings too."""

from __future__ import annotations

import functools
import logging
import smtplib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_scopes import scopes_disabled

from clubsite.devices import client_address
from members.clubs import languages, signup
from members.clubs.officers import officer_link
from members.clubs.scope import club_home
from members.models import Club, ClubRole, Person

logger = logging.getLogger(__name__)

#: The most clubs the list shows at once (a search narrows it).
LIST_LIMIT = 200


@require_GET
def club_list(request):
    """A shared site's front page: its active clubs, with a search by name or slug
    (a plain GET form)."""
    query = " ".join(request.GET.get("q", "").split())[:80]
    clubs = Club.objects.active().only("slug", "name", "host")
    if query:
        clubs = clubs.filter(Q(name__icontains=query) | Q(slug__icontains=query))
    clubs = list(clubs[: LIST_LIMIT + 1])
    rows = [{"club": c, "url": club_home(request, c)} for c in clubs[:LIST_LIMIT]]
    return render(
        request,
        "clubs/list.html",
        {
            "rows": rows,
            "query": query,
            "more": len(clubs) > LIST_LIMIT,
            "signup_open": settings.CLUB_SIGNUP,
        },
    )


def clubs_of(user) -> list[Club]:
    """The active clubs where ``user`` has a role or a person record."""
    if not user.is_authenticated:
        return []
    with scopes_disabled():
        roles = ClubRole.objects.filter(user=user).values("club_id")
        people = Person.objects.filter(user=user, merged_into__isnull=True).values("club_id")
        return list(Club.objects.active().filter(Q(pk__in=roles) | Q(pk__in=people)))


@login_required
@require_GET
def my_clubs(request):
    """A login that belongs to several clubs chooses one (after logging in on the
    site's own address, or any time from here)."""
    rows = [{"club": c, "url": club_home(request, c)} for c in clubs_of(request.user)]
    return render(request, "clubs/mine.html", {"rows": rows})


class LoginView(auth_views.LoginView):
    """Django's login page. Logged in at a club's address: that club's pages (or the
    page asked for). At the site's own address: the one club of the login, or the
    page to choose among several."""

    def get_default_redirect_url(self):
        if getattr(self.request, "club", None) is not None:
            return super().get_default_redirect_url()
        clubs = clubs_of(self.request.user)
        if len(clubs) == 1:
            return club_home(self.request, clubs[0])
        if clubs:
            return reverse("my_clubs")
        return super().get_default_redirect_url()


class SetPasswordView(auth_views.PasswordResetConfirmView):
    """A new officer's one-time link (Django's password-reset link and page, at the
    club's address): they choose a password and are logged in at the club. The link
    works until the password is set."""

    template_name = "registration/set_password.html"
    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"
    success_url = reverse_lazy("home")

    def dispatch(self, *args, **kwargs):
        response = super().dispatch(*args, **kwargs)
        if not self.validlink and response.status_code == 200:
            response.status_code = 400  # a used, ended or made-up link: nothing here
        return response

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, _("Your password is set and you are logged in."))
        return response


def _browser_language(request) -> str:
    """The site's language the browser asks for first (Accept-Language), else the
    site's (a new club's, ``CLUB_LANGUAGE``)."""
    if not request.META.get("HTTP_ACCEPT_LANGUAGE", "").strip():
        return languages.club_language(request)
    asked = translation.get_language_from_request(request)
    return languages.valid(asked) or languages.club_language(request)


def _in_browsers_language(view):
    """ "Start a club" is read before there is a club: its pages are drawn in the
    language the browser asks for (the form's first choice too), unless this phone chose
    one with the switch; the confirmation link's page in the language chosen on the
    form."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        code = languages.phone_language(request) or _browser_language(request)
        translation.activate(code)
        request.LANGUAGE_CODE = code
        response = view(request, *args, **kwargs)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers["Content-Language"] = translation.get_language()
        return response

    return wrapped


def _signup_open():
    if not settings.CLUB_SIGNUP:
        raise Http404("Starting a club here is off.")


@require_http_methods(["GET", "POST"])
@_in_browsers_language
def club_signup(request):
    """Start a club: the form, then a confirmation link by e-mail."""
    _signup_open()
    form = signup.SignupForm(request.POST or None, language=_browser_language(request))
    if request.method == "POST" and form.is_valid():
        if signup.too_many(client_address(request)):
            form.add_error(
                None, _("Several clubs were started from here this hour: try again in an hour.")
            )
        else:
            data = form.cleaned_data
            link = request.build_absolute_uri(
                reverse("club_signup_confirm", args=[signup.make_token(data)])
            )
            try:
                signup.send_confirmation(data, link)
            except signup.Refused as refused:
                form.add_error("email", str(refused))
            except (smtplib.SMTPException, OSError):
                logger.exception("The sign-up's confirmation mail could not be sent")
                form.add_error(
                    None, _("The e-mail could not be sent just now: try again in a few minutes.")
                )
            else:
                request.session["club_signup_email"] = data["email"]
                return redirect("club_signup_sent")
    return render(request, "clubs/signup.html", {"form": form})


@require_GET
@_in_browsers_language
def club_signup_sent(request):
    _signup_open()
    email = request.session.get("club_signup_email")
    return render(
        request, "clubs/signup_sent.html", {"email": email, "hours": settings.CLUB_SIGNUP_HOURS}
    )


@require_http_methods(["GET", "POST"])
@_in_browsers_language
def club_signup_confirm(request, token):
    """The confirmation link: a button that makes the club (a GET makes nothing, so a
    mail program opening the link to check it does not), then the officer's
    set-password page."""
    _signup_open()
    try:
        data = signup.read_token(token)
    except signup.LinkProblem as problem:
        return render(request, "clubs/signup_confirm.html", {"problem": str(problem)}, status=400)
    chosen = languages.valid(data.get("language_code"))
    if chosen:  # the new club's language, chosen on the form
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen
    if request.method == "POST":
        try:
            club, user = signup.start_club(data)
        except signup.Taken:
            problem = _(
                "Another club has the address /%(slug)s/ now. Fill in the form again with "
                "another short name."
            ) % {"slug": data["slug"]}
            return render(request, "clubs/signup_confirm.html", {"problem": problem}, status=409)
        if user.has_usable_password():
            messages.success(
                request, _("%(club)s is made: log in with your password.") % {"club": club.name}
            )
        return redirect(officer_link(user, club, request))
    return render(request, "clubs/signup_confirm.html", {"data": data})
