"""The published site: an MkDocs plugin that checks the lessons and renders their pages.

:mod:`rlkl.site.records` reads the check results (the only module that does); the others
render from its records: :mod:`~rlkl.site.lesson` (lesson pages), :mod:`~rlkl.site.pages`
(catalog, report, references), :mod:`~rlkl.site.plot`, :mod:`~rlkl.site.mathml`,
:mod:`~rlkl.site.html` (escaping) and :mod:`~rlkl.site.plugin` (the MkDocs entry point).
"""
