"""Small, dependency-free statistics the reports decide with: intervals, the false discovery
rate, judged rates corrected for the judge's errors (Rogan–Gladen, PPI++), the label planner and
the confidence sequence of adaptive repeats (docs/decisions.md, "Numbers"; docs/statistics.md).
scipy, statsmodels and ppi-python are test references only."""
