"""Results and the league: standings, ratings, the workbook, the results pages."""
