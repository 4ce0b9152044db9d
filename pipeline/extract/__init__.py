"""Claims from a segmented document: one resolver over the names, cues and numbers of each sentence and table
(``claims.py`` is the entry point, ``extract_claims``)."""
