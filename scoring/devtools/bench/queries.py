"""The data queries of a captured request, for the query-count tests."""

TRANSACTION_STATEMENTS = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def data_queries(captured: list[dict]) -> list[str]:
    """The SQL of the captured queries without the transaction statements (BEGIN,
    COMMIT, savepoints), which carry no data and which PostgreSQL's driver does not
    even log: the count that compares across databases."""
    return [q["sql"] for q in captured if not q["sql"].startswith(TRANSACTION_STATEMENTS)]
