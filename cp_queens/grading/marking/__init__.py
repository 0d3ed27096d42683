"""Marking and output: what the graded rows become on disk.

``marks`` writes marks.csv and the feedback, ``overrides`` applies a lecturer's
decisions, ``export`` writes the LMS's gradebook import, ``written`` writes every file
whole or not at all.
"""
