"""Stage 2, templates: a ``says`` sentence's slots (slots), finding it in the prose (search,
matching) and binding its numbers to quantities (bind).
"""
