"""One DP run: its configuration (``config``, one table of knobs), its schedule and calibration before
it starts (``calibrated_run``), the training loop whose step is the one accounted release (``train``),
what became of a trial (``trial_status``) and the one-run privacy audit (``audit``)."""
