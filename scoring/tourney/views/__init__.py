"""The event's pages: the officer's (:mod:`.officer`), the ranking and the prize list
(:mod:`.public`), and the table phones' two taps (:mod:`.phone`)."""
