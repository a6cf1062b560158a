from django.urls import path

from members.bookings.views import door, mail, member, news, officer

app_name = "bookings"

urlpatterns = [
    # A member's bookings
    path("book/", member.days, name="days"),
    path("book/<int:pk>/", member.book, name="book"),
    path("book/<int:pk>/cancel/", member.cancel, name="cancel"),
    path("book/<int:pk>/looking/", member.looking, name="looking"),
    path("book/<int:pk>/partners/", member.partners, name="partners"),
    path("book/mail/", mail.set_choices, name="choices"),
    path("book/unsubscribe/<str:token>/", mail.unsubscribe, name="unsubscribe"),
    # The officers'
    path("bookings/", officer.hub, name="hub"),
    path("bookings/settings/", officer.settings_page, name="settings"),
    path("days/<int:pk>/bookings/", officer.day_list, name="day_list"),
    path("days/<int:pk>/bookings/print/", officer.day_print, name="day_print"),
    path("days/<int:pk>/bookings/add/", officer.add, name="add"),
    path("days/<int:pk>/bookings/<int:booking_pk>/remove/", officer.remove, name="remove"),
    path("days/<int:pk>/bookings/<int:booking_pk>/no-show/", officer.no_show, name="no_show"),
    path("days/<int:pk>/bookings/<int:booking_pk>/guest-in/", door.door_guest, name="door_guest"),
    path("days/<int:pk>/substitutes/call/", news.call, name="call"),
    path("substitutes/", news.substitutes, name="substitutes"),
    path("substitutes/<int:pk>/remove/", news.substitute_remove, name="substitute_remove"),
    path("announcements/", news.announcements, name="announcements"),
    path("announcements/<int:pk>/withdraw/", news.withdraw, name="withdraw"),
]
