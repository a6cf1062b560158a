from django.urls import path

from members import views

app_name = "members"

urlpatterns = [
    # Club days
    path("days/", views.days, name="days"),
    path("days/<int:pk>/", views.day, name="day"),
    # The door (sign-in)
    path("days/<int:pk>/door/", views.signin, name="signin"),
    path("days/<int:pk>/door/sign-in/", views.signin_person, name="signin_person"),
    path("days/<int:pk>/door/guest/", views.signin_guest, name="signin_guest"),
    path("days/<int:pk>/door/undo/<int:signin_pk>/", views.signin_undo, name="signin_undo"),
    path("days/<int:pk>/door/list/", views.signin_list, name="signin_list"),
    # Seating
    path("days/<int:pk>/seating/", views.seating_page, name="seating"),
    path("days/<int:pk>/seating/draw/", views.seating_draw, name="seating_draw"),
    path("days/<int:pk>/seating/start/", views.seating_start, name="seating_start"),
    path("days/<int:pk>/seating/move/", views.seating_move, name="seating_move"),
    path("days/<int:pk>/seating/swap/", views.seating_swap, name="seating_swap"),
    path("days/<int:pk>/seating/screen/", views.seating_display, name="seating_display"),
    # People
    path("people/", views.people, name="people"),
    path("people/new/", views.person_new, name="person_new"),
    path("people/import/", views.roster_import, name="import"),
    path("people/merge/", views.merge, name="merge"),
    path("people/<int:pk>/", views.person, name="person"),
    path("people/<int:pk>/edit/", views.person_edit, name="person_edit"),
    path("people/<int:pk>/make-member/", views.person_convert, name="person_convert"),
    path("people/<int:pk>/login/", views.person_login, name="person_login"),
    # A member's own page
    path("me/", views.me, name="me"),
]
