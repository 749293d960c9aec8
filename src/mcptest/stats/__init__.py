"""Small, dependency-free statistics the reports decide with: intervals and the false discovery
rate (docs/decisions.md, "Numbers"). scipy and statsmodels are test references only."""
