"""The version of luckylab, in a module of its own so that nothing low imports the face.

>>> from luckylab._version import __version__
>>> __version__.count(".")
2
"""

__version__ = "0.1.0"
