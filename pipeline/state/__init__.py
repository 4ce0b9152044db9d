"""The run's SQLite state and the editors' decisions: the store (``store.py``, ``store_review.py``), its schema and
migrations, the decisions journal (``journal.py``), decisions with their history (``decisions.py``) and their CSV
form (``decisions_csv.py``)."""
