"""The sweep core, without Ray: what a sweep is and what it may cost, before and after any trial runs.

``spec`` (the YAML, validated), ``space`` (each method's search space), ``preflight`` (what can be checked
before a trial starts), ``ledger`` (the sweep's private state: its secret counts and keys, and the
write-ahead record of every trial started) and ``bound`` (the ε a sweep's whole search may cost, fixed
before it starts). The privacy of a sweep lives here; the Ray Tune adapter (``dptune.tune``) runs it.
"""
