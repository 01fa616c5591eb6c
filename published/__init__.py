"""The published language: the facts one app's streams tell the others, typed and versioned.

An app reads another app's stream only through these types (``published.matches``, ``published.tournaments``)
and the rules that go with them (``published.slots``: which result an event's slot counts), never through the
other app's own modules (an import contract in pyproject.toml says so). Each type declares its schema version
and how older rows of it read (its ``upcasts``): the event log applies them wherever a stream is read
(``eventlog/upcasting.py``), so every reader meets today's shape.

Pure Python: no Django, nothing of the apps, nothing of the event log.
"""
