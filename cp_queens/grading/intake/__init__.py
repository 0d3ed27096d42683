"""Intake: who is in the class and what they handed in.

``discover`` turns every entry of the class folder into one ``Submission`` (graded, or
with the reason it is not), ``roster`` reads the class list and places the graded rows
on it, ``textfile`` reads a file whole and capped, as Python or as a lecturer's config.
"""
