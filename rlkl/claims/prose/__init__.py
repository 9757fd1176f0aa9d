"""Stage 1, the prose: every prose string of a lesson (fields), the numbers in it (scanner),
and where a character of a string sits in the file (source).
"""
