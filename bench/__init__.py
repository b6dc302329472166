"""Benchmarks: run each as a module from the project root, e.g. ``python -m bench.engine``.

(As modules, so that ``bench/engine.py`` and ``bench/bot.py`` do not shadow the
``engine`` and ``bot`` packages.)
"""
