"""Tools around the lessons (``notebooks/*.ipynb``): for teachers and for the test suite.

This subpackage sits above :mod:`luckylab.viz` in the layering: only the package face and the
command line import it (``import luckylab`` loads :mod:`~luckylab.lessons.exercises` alone, for
``luckylab.check``), and it imports nbformat / nbclient only inside the functions that need them
(they come with the ``lab`` and ``test`` extras).

- :mod:`luckylab.lessons.exercises`: ``luckylab.check("04.1", answer)``, the self-checking
  exercises (answers in ``luckylab/data/answers``).
- :mod:`luckylab.lessons.notebook`: find and read lessons; cell tags; lesson prefixes ("04", "3b").
- :mod:`luckylab.lessons.student_copy`: copies without ``solution`` cells, for students.
- :mod:`luckylab.lessons.stats`: words of prose and code cells per lesson (the length limits).
- :mod:`luckylab.lessons.outputs`: stored outputs against a fresh run, cell by cell.
- :mod:`luckylab.lessons.style`: the house style of the lessons, checked.
- :mod:`luckylab.lessons.slides`: slideshow metadata for ``jupyter nbconvert --to slides``.
"""
