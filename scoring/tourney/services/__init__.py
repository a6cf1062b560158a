"""Every write of an event: making and editing it (:mod:`.setup`), its rounds (start,
end, the next seating: :mod:`.rounds`), the clock (:mod:`.clock`) and arrivals at the
tables (:mod:`.arrivals`). Games are started and ended through the play services only
(``scoring.play.services``), the one code that writes scores.

Each officer's action carries the key its form was drawn with and is stored once
(``ClockAction``): a double tap, a reload or a retried POST is answered
:class:`~.errors.AlreadyDone` and writes nothing. Refusals are
:class:`~.errors.EventRefused`, with a message that says what to change.
"""
