"""Roster import: read a messy .xlsx or .csv, check every row, plan, then save.

Three steps, kept apart so that the upload page and `manage.py import_members` share
them and nothing is saved before an officer confirms:

1. ``read.read_roster(filename, data)``: pure, no database. Finds the header row
   anywhere in the first rows, recognises column names in any case and spelling, and
   returns a `Roster`: valid rows, refused rows with their line number and reason, exact
   duplicates, rows replaced by a later row with the same membership number (one person:
   the later row wins), and how its dates were read. A file that is not a roster raises
   `RosterError` with one clear message.
2. ``plan.plan_import(rows)``: reads the database: which rows create a member, which
   update one (matched by membership number, and which fields change), which change
   nothing.
3. ``plan.apply_import(roster)``: plans again against the current database and saves,
   all in one transaction.

The rooms:

- ``read``: files to rows (CSV, XLSX, encodings, the header row), the `Roster` found.
- ``clean``: cells to values (names, membership numbers, statuses), one row at a time
  and the rows of a file together (duplicates, a number on two rows).
- ``dates``: a date cell, and the order (day or month first) of a file's dates.
- ``plan``: planning and applying an import against the database.

Blank cells never erase what we already have: a roster without phone numbers does not
wipe the phone numbers on file. Dates like 03/04/2021 are read the way the other dates
of the same file show (a day above 12 settles it); when nothing settles it they are read
month first (US style) unless told otherwise. The preview shows the order as a choice,
with the rows that decided it, and reads the kept cells again the other way if asked.
"""
