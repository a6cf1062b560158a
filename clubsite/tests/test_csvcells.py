"""CSV downloads: formulas defused, every text cell quoted (";" lists too), read back."""

import csv
import io

from clubsite.csvcells import csv_download, unescape_cell


def _rows(response) -> list[list[str]]:
    text = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_text_holding_a_separator_or_quote_is_quoted():
    response, writer = csv_download("people.csv")
    writer.writerow(["Ann; =1+1", 'Bob "the dealer"', "Cat\tCole", 12])
    line = response.content.decode("utf-8-sig").splitlines()[0]
    assert line == '"Ann; =1+1","Bob ""the dealer""","Cat\tCole",12'
    assert response["Content-Disposition"] == 'attachment; filename="people.csv"'


def test_a_semicolon_list_reads_a_quoted_name_as_one_cell():
    """Excel with ";" as its list separator: the name stays whole, never a formula."""
    response, writer = csv_download("people.csv")
    writer.writerow(["Smith;=HYPERLINK(1)", "x"])
    text = response.content.decode("utf-8-sig")
    as_semicolons = next(csv.reader(io.StringIO(text), delimiter=";"))
    # The quotes keep "Smith;=HYPERLINK(1)" together: no cell starts with "=".
    assert as_semicolons[0].startswith("Smith;=HYPERLINK(1)")
    assert not any(cell.startswith("=") for cell in as_semicolons)


def test_formula_like_text_is_defused_and_comes_back():
    response, writer = csv_download("x.csv")
    writer.writerow(["=SUM(A1)", "-3 points", None])
    cells = _rows(response)[0]
    assert cells == ["'=SUM(A1)", "'-3 points", ""]
    assert [unescape_cell(c) for c in cells] == ["=SUM(A1)", "-3 points", ""]
