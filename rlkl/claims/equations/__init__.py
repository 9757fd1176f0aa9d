"""Equations as claims: the LaTeX subset (latex) read into relations, cached (latex_cache),
and checked on a grid against the core function each binding names (equations).
"""
