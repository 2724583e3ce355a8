"""``hat-env import-log``: logs of real comments (CSV or JSON Lines) as scripted timelines, scenarios and evaluation
cases. :mod:`~hat_env.importlog.read` reads and checks a log; :mod:`~hat_env.importlog.build` turns it into a
timeline fragment, a whole scenario or cases; :mod:`~hat_env.importlog.cli` is the command."""
