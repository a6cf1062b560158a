"""Events: the pure foundation of tournaments (issue 35).

``movements`` says who sits where each round (Mitchell and Swiss for partnerships, an
individual movement for players); ``ranking`` turns an event's games into a fair
ranking (wins then points, victory points from the point difference, percentage of the
maximum; tie-aware, with brackets). Pure Python like ``scoring.engine``: no Django, no
database, no clock; randomness only from a ``random.Random`` seeded by the caller
(``scoring/tests/events/test_purity.py``). Pairing is by weighted matching with
networkx, as Tabbycat's draw generator does.
"""
