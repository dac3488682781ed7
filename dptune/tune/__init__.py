"""The Ray Tune adapter, the only package that imports Ray and Optuna: a spec becomes one Ray Tune
``Tuner`` per sweep (``driver``) holding every method's search (``sweep_searcher``: the chain of steps
the sweep's mode builds; ASHA per method in ``schedulers``), each searched by Optuna (``define_by_run``)
behind a searcher that accounts every trial (``searcher``), run by one trainable (``trainable``), recorded
by callbacks (``callbacks``), resumable (``restore``).

It imports none of them: a trial actor imports ``dptune.tune.trainable`` and the step board's actor
``dptune.tune.step_board`` without the driver's MLflow and Optuna (``bench/startup_cost.py``); the
driver's entry point is ``dptune.tune.driver``."""
