"""The DP methods, one module per method: each defines ``DEFINITION``, a ``MethodDefinition``.

``dptune.methods.registry`` collects every module of this package: adding a method is adding its module
here (its parameters declare ``changes_noise``, which ``tests/test_noise_knobs.py`` checks against real
runs); the CLI, specs, sweeps, trainables and the table-driven tests read the registry.
"""
