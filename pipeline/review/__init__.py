"""Reviewing flags over the run's state: the ``review`` command line (``cli.py``) and the review app (``server.py``
starts it; ``app.py`` routes, ``views.py`` pages, ``auth.py`` users and sessions)."""
