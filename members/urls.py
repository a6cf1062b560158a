from django.urls import path

from members.views import days, door, jobs, me, people, roster, seating

app_name = "members"

urlpatterns = [
    # Club days
    path("days/", days.days, name="days"),
    path("days/<int:pk>/", days.day, name="day"),
    path("days/<int:pk>/close/", days.day_close, name="day_close"),
    # The door (sign-in)
    path("days/<int:pk>/door/", door.signin, name="signin"),
    path("days/<int:pk>/door/sign-in/", door.signin_person, name="signin_person"),
    path("days/<int:pk>/door/guest/", door.signin_guest, name="signin_guest"),
    path("days/<int:pk>/door/undo/<int:signin_pk>/", door.signin_undo, name="signin_undo"),
    path("days/<int:pk>/door/list/", door.signin_list, name="signin_list"),
    # Seating
    path("days/<int:pk>/seating/", seating.seating_page, name="seating"),
    path("days/<int:pk>/seating/draw/", seating.seating_draw, name="seating_draw"),
    path("days/<int:pk>/seating/start/", seating.seating_start, name="seating_start"),
    path("days/<int:pk>/seating/move/", seating.seating_move, name="seating_move"),
    path("days/<int:pk>/seating/swap/", seating.seating_swap, name="seating_swap"),
    path("days/<int:pk>/seating/screen/", seating.seating_display, name="seating_display"),
    # People
    path("people/", people.people, name="people"),
    path("people/new/", people.person_new, name="person_new"),
    path("people/import/", roster.roster_import, name="import"),
    path("people/merge/", people.merge, name="merge"),
    path("people/<int:pk>/", people.person, name="person"),
    path("people/<int:pk>/edit/", people.person_edit, name="person_edit"),
    path("people/<int:pk>/make-member/", people.person_convert, name="person_convert"),
    path("people/<int:pk>/login/", people.person_login, name="person_login"),
    # Background jobs (the roster import's apply step, rebuilds, backups)
    path("jobs/<int:pk>/", jobs.job_view, name="job"),
    path("jobs/<int:pk>/backup.json", jobs.job_file_view, name="job_file"),
    # A member's own page
    path("me/", me.me, name="me"),
    path("me/results-mail/", me.me_results_mail, name="me_results_mail"),
    path("me/language/", me.me_language, name="me_language"),
]
