"""Every write of the money app: the ledger (payments, charges, reversals), table money
at the door, bank imports, statements and dues."""
