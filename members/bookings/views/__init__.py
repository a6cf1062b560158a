"""The bookings pages: a member's (member), the officers' (officer), the club's news
(news), the door's booked guests and no-shows (door), the mail choices (mail)."""
