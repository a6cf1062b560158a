"""The server-rendered SVG charts."""

import datetime
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from scoring.results import charts

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg):
    return ET.fromstring(str(svg))


def test_line_chart_is_accessible_svg():
    days = [datetime.date(2025, 1, 2) + datetime.timedelta(days=7 * i) for i in range(8)]
    points = list(zip(days, [5100, 450, 5300, -120, 6600, 3000, 5050, 4800], strict=True))
    svg = charts.line_chart(
        points, title="Game scores of Ann & <Bob>", y_label="Game score", noun="game"
    )
    root = parse(svg)
    assert root.get("role") == "img"
    title = root.find("svg:title", NS)
    desc = root.find("svg:desc", NS)
    assert title.text == "Game scores of Ann & <Bob>"  # escaped in the markup
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert (
        desc.text
        == "8 games from 2 Jan 2025 to 20 Feb 2025; lowest -120, highest 6,600, latest 4,800."
    )
    line = root.find("svg:polyline", NS)
    assert len(line.get("points").split()) == 8
    assert len(root.findall("svg:circle", NS)) == 8
    labels = [t.text for t in root.findall("svg:text", NS)]
    assert "2 Jan 2025" in labels and "20 Feb 2025" in labels and "Game score" in labels
    assert root.find("svg:line[@class='chart-zero']", NS) is not None  # crosses zero


def test_one_point_and_no_points():
    assert charts.line_chart([], title="t", y_label="y") == ""
    root = parse(charts.line_chart([(datetime.date(2025, 1, 1), 3.5)], title="t", y_label="y"))
    assert root.find("svg:polyline", NS) is None
    assert len(root.findall("svg:circle", NS)) == 1


def test_many_points_drop_the_dots():
    root = parse(charts.line_chart([(str(i), i % 7) for i in range(500)], title="t", y_label="y"))
    assert root.findall("svg:circle", NS) == []


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=50))
def test_points_stay_inside_the_chart(values):
    root = parse(
        charts.line_chart([(str(i), v) for i, v in enumerate(values)], title="t", y_label="y")
    )
    for circle in root.findall("svg:circle", NS):
        assert 0 <= float(circle.get("cx")) <= charts.WIDTH
        assert (
            charts.MARGIN_TOP - 0.5
            <= float(circle.get("cy"))
            <= charts.HEIGHT - charts.MARGIN_BOTTOM + 0.5
        )


def test_nice_ticks_cover_the_range():
    assert charts.nice_ticks(0, 100) == [0, 25, 50, 75, 100]
    ticks = charts.nice_ticks(-130, 6600)
    assert ticks[0] <= -130 and ticks[-1] >= 6600
    assert charts.nice_ticks(5, 5)[0] < 5 < charts.nice_ticks(5, 5)[-1]


def test_a_start_point_is_drawn_first_and_named_not_counted():
    points = [(datetime.date(2025, 1, 2), 970.0), (datetime.date(2025, 1, 9), 1010.0)]
    root = parse(
        charts.line_chart(
            points,
            title="t",
            y_label="Rating",
            noun="rated game",
            start=("Start", 1000),
            reference=1000,
        )
    )
    assert root.find("svg:desc", NS).text == (
        "Start at 1,000; then 2 rated games from 2 Jan 2025 to 9 Jan 2025; "
        "lowest 970, highest 1,010, latest 1,010."
    )
    assert len(root.findall("svg:circle", NS)) == 3
    assert "Start" in [t.text for t in root.findall("svg:text", NS)]
    assert root.find("svg:line[@class='chart-zero']", NS) is not None  # the 1,000 line


@given(st.integers(1, 400))
def test_x_labels_never_overlap_and_name_both_ends(n):
    root = parse(charts.line_chart([(str(i), i) for i in range(n)], title="t", y_label="y"))
    ticks = [t for t in root.findall("svg:text", NS) if "chart-x" in (t.get("class") or "")]
    xs = [float(t.get("x")) for t in ticks]
    assert ticks[0].text == "0" and ticks[-1].text == str(n - 1)
    assert all(b - a >= charts.LABEL_GAP for a, b in zip(xs, xs[1:], strict=False))
