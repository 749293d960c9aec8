"""Judges calibrated against human labels: labels files, the calibration record, its figures
and the gate that makes an uncalibrated judge advisory (docs/calibration.md)."""
