"""One DP run: its configuration (``config``, one table of knobs), its plan and calibration before it
starts (``run_plan``), the training loop whose step is the one accounted release (``train``), what became
of a trial (``trial_status``) and the one-run privacy audit (``audit``)."""
