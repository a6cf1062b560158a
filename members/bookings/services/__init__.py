"""Every write of the bookings app: bookings and the waiting list (``bookings``), the
club's booking rules (``rules``), the outbox of e-mails (``notices``), mail choices
(``choices``), the club's news (``news``: announcements, substitutes, partners)."""
